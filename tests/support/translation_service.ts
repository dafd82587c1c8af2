/**
 * Starts the real translation service in-process on 127.0.0.1:0 with a temporary settings file,
 * data directory and the committed fixture models.
 */
import { join } from "node:path";
import { createTranslationApp, type TranslationApp } from "../../app/translation_app.ts";
import { loadLanguageDetector } from "../../detection/language_detector.ts";
import { createEnginePipeline, engineSettingsSync } from "../../engines/engine_registry.ts";
import type { EngineQueueOptions } from "../../engines/engine_queue.ts";
import { SettingsStore } from "../../settings/settings_store.ts";
import { type DataStores, openDataStores } from "../../storage/data_stores.ts";
import type { DatabaseOptions } from "../../storage/database.ts";
import type { HistoryStore } from "../../storage/history_store.ts";
import { postJson } from "./http_assertions.ts";

/** The committed tiny models, in the hub layout. */
export const FIXTURE_MODELS_DIR = new URL("../fixtures/models/", import.meta.url).pathname;

/** The fixture model the test service uses by default. */
export const FIXTURE_MODEL = "tolk-test/tiny-nllb";

/** A known token for tests (43 base64url characters, like a real one). */
export const TEST_TOKEN = "test-token-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

/** Options of {@link startTranslationService}. */
export interface TestServiceOptions {
  /** Extra settings merged over the test defaults (API enabled with {@link TEST_TOKEN}). */
  settings?: Record<string, unknown>;
  maxNewTokens?: number;
  /** Queue of the built-in engine (default: the service's own). */
  localQueue?: EngineQueueOptions;
  /** How long the pipeline reuses engine statuses (0: tests that stop a backend see it at once). */
  statusTtlMs?: number;
  /** How long stop() lets WebSockets answer their frames before closing them (default 9 s). */
  socketCloseMs?: number;
  /** Data directory (default: a fresh one inside the temporary directory). */
  dataDir?: string;
  /** Options of the database (e.g. a small `maxPageCount`). */
  database?: DatabaseOptions;
  /** Serve without history, glossaries and memory (as a build without a data directory). */
  withoutStores?: boolean;
  /** Where local models are looked for (default: the test fixtures). */
  modelsDir?: string;
  /**
   * Whether the service says it reads a settings file and models folder other than the defaults
   * (default true, as its temporary ones are), so the settings page's commands pass them.
   */
  customConfig?: boolean;
}

/** A running test service. */
export interface TestService {
  /** The composed app (its registered routes are what the route-table test compares). */
  app: TranslationApp["app"];
  url: string;
  wsUrl: string;
  token: string;
  configPath: string;
  dataDir: string;
  store: SettingsStore;
  stores: DataStores;
  history: HistoryStore;
  /** Every log line the service wrote. */
  logs: string[];
  /** Shuts down (WebSockets get 1001), frees engines and removes the temporary files. */
  stop(): Promise<void>;
}

/** Starts the service; always `await service.stop()` in a `finally`. */
export async function startTranslationService(
  options: TestServiceOptions = {},
): Promise<TestService> {
  const dir = await Deno.makeTempDir({ prefix: "tolk-serve-test-" });
  const configPath = join(dir, "settings.json");
  const settingsJson = {
    api: { enabled: true, token: TEST_TOKEN },
    ...options.settings,
    engines: {
      "local-llm": { model: FIXTURE_MODEL },
      // A real runner or desktop server on the developer's machine must not answer the tests.
      "engine-one": { base_url: closedPortUrl() },
      "engine-two": { base_url: closedPortUrl() },
      ...(options.settings?.engines as Record<string, unknown> | undefined),
    },
  };
  await Deno.writeTextFile(configPath, JSON.stringify(settingsJson));
  const store = new SettingsStore(configPath);
  const settings = store.current();
  const detector = await loadLanguageDetector();
  const registry = {
    modelsDir: options.modelsDir ?? FIXTURE_MODELS_DIR,
    maxNewTokens: options.maxNewTokens ?? 8,
    localQueue: options.localQueue,
    statusTtlMs: options.statusTtlMs,
  };
  const pipeline = createEnginePipeline(settings, registry);
  const dataDir = options.dataDir ?? join(dir, "data");
  const stores = openDataStores(dataDir, options.database);
  const logs: string[] = [];
  const service = createTranslationApp({
    settings: store,
    detector,
    pipeline,
    stores: options.withoutStores ? undefined : stores,
    log: (line) => logs.push(line),
    page: {
      modelsDir: options.modelsDir ?? FIXTURE_MODELS_DIR,
      applyEngineSettings: engineSettingsSync(pipeline, settings, registry),
      pathFlags: options.customConfig === false
        ? {}
        : { config: configPath, "models-dir": options.modelsDir ?? FIXTURE_MODELS_DIR },
    },
  });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    service.app.fetch,
  );
  const { port } = server.addr as Deno.NetAddr;
  return {
    app: service.app,
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    token: TEST_TOKEN,
    configPath,
    dataDir,
    store,
    stores,
    history: stores.history,
    logs,
    async stop() {
      // As the command does (cli/http_server.ts): sockets answered and closed, then the server.
      await service.beginShutdown(options.socketCloseMs ?? 9_000);
      await server.shutdown();
      await pipeline.close();
      stores.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Service options whose `engine` is the server at `baseUrl`, its status never cached. */
export function engineAt(engine: string, baseUrl: string): TestServiceOptions {
  return {
    settings: { engines: { [engine]: { base_url: baseUrl, status_cache_ms: 0 } } },
    statusTtlMs: 0,
  };
}

/** A loopback URL on a port nothing listens on (just freed by this process). */
export function closedPortUrl(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return `http://127.0.0.1:${port}`;
}

/** Runs `fn` against a fresh service and always stops it. */
export async function withTranslationService(
  fn: (service: TestService) => Promise<void>,
  options?: TestServiceOptions,
): Promise<void> {
  const service = await startTranslationService(options);
  try {
    await fn(service);
  } finally {
    await service.stop();
  }
}

/** POST /v1/translate with the service's token. */
export function postTranslate(
  service: TestService,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return postJson(`${service.url}/v1/translate`, body, {
    "x-svc-token": service.token,
    ...headers,
  });
}
