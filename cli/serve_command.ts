/**
 * `tolk serve`: the local translation service, on loopback only.
 */
import { z } from "zod";
import { createTranslationApp } from "../app/translation_app.ts";
import { loadLanguageDetector } from "../detection/language_detector.ts";
import { createEnginePipeline, engineSettingsSync } from "../engines/engine_registry.ts";
import { BUILTIN_ENGINE_ID } from "../engines/builtin/builtin_engine.ts";
import { inspectModel, missingModelHint } from "../models/model_store.ts";
import type { Settings } from "../schemas/settings.ts";
import { SettingsFileError, SettingsStore } from "../settings/settings_store.ts";
import { exposedTokenWarning } from "../settings/exposed_token.ts";
import { openDataStores } from "../storage/data_stores.ts";
import { StorageError, type StorageFailure } from "../storage/database.ts";
import {
  configFlag,
  dataDirFlag,
  dataDirRefusal,
  defaultModelsDir,
  modelsDirFlag,
  modelsDirRefusal,
  pathFlagsForHint,
  pathFlagsFromEnvironment,
} from "./config_paths.ts";
import { type CommandUsage, loopbackHostFlag, parseCommand, portFlag } from "./flags.ts";
import { bindHttpServer, DRAIN_TIMEOUT_MS } from "./http_server.ts";
import { bindHostname, LOOPBACK_RULE } from "../net/loopback.ts";
import { DEFAULT_HOST, SERVE_PORT } from "../net/serve_address.ts";
import { tolkCommand } from "../tolk_command.ts";

const FlagsSchema = z.object({
  host: loopbackHostFlag(
    `binds to loopback only (${LOOPBACK_RULE}), so no request is served to other machines; ` +
      `use one of those, e.g. the default ${DEFAULT_HOST}`,
  ).describe(`bind address, loopback only (${LOOPBACK_RULE})`),
  port: portFlag().default(SERVE_PORT).describe("TCP port (0 picks a free one)"),
  config: configFlag,
  "data-dir": dataDirFlag,
  "models-dir": modelsDirFlag,
});

/** `tolk serve` in the help text. */
export const usage = {
  name: "serve",
  summary: `the translation service on loopback (http://127.0.0.1:${SERVE_PORT}/v1)`,
  flags: FlagsSchema,
  environment: ["TOLK_CONFIG", "TOLK_DATA_DIR", "TOLK_MODELS_DIR"],
} satisfies CommandUsage;

/** Typed options of `tolk serve`. */
export type ServeFlags = z.infer<typeof FlagsSchema>;

/** Runs `tolk serve` until SIGINT/SIGTERM. */
export async function run(args: string[]): Promise<number> {
  const { flags } = parseCommand(args, usage, { env: pathFlagsFromEnvironment() });
  // Bound first: a taken port is then the only thing said, and no settings file or data
  // folder is created by a service that cannot start.
  const bound = bindHttpServer({ hostname: bindHostname(flags.host), port: flags.port });
  const opened = await openService(flags);
  if (typeof opened === "number") {
    await bound.close();
    return opened;
  }
  const { service, pipeline, stores } = opened;
  let released: Promise<void> | undefined;
  // The database first: it is quick, and waiting rows and the emptied log must not hang on an
  // engine's release.
  const release = () => released ??= (stores.close(), pipeline.close());
  try {
    const server = bound.serve(service.app.fetch, {
      // A second before the drain's bound, so the 1001 frames leave before the process exits.
      onShutdown: () => service.beginShutdown(DRAIN_TIMEOUT_MS - 1_000),
      // Within the drain: a signal's handler exits the process once it is done, before the code
      // after `finished` runs, and the database would be left unclosed (its log not emptied:
      // the text of a delete a reader held back stayed in the -wal).
      afterDrain: release,
    });
    await server.finished;
  } finally {
    // Also when the `listening on` line could not be written (stdout on a full disk).
    await release();
  }
  return 0;
}

/**
 * Reads the settings, checks the folders, opens the data and loads the engines; an exit code
 * (with its one stderr line said) when the service cannot start.
 */
async function openService(flags: ServeFlags) {
  const configPath = flags.config;
  const dataDir = flags["data-dir"];
  const modelsDir = flags["models-dir"] ?? defaultModelsDir(dataDir);

  const store = new SettingsStore(configPath);
  let settings;
  try {
    const ensured = store.ensure();
    settings = ensured.settings;
    store.current(); // primes the live copy the auth check reads
  } catch (error) {
    if (!(error instanceof SettingsFileError)) throw error;
    console.error(error.message);
    return 2;
  }
  const exposed = exposedTokenWarning(configPath, settings);
  if (exposed) console.error(exposed);
  if (!settings.api.enabled) {
    console.error(
      `the local API is disabled (settings: ${configPath}); enable it with \`${
        tolkCommand("api enable", pathFlagsForHint({ config: configPath }))
      }\``,
    );
  }

  // Checked before anything is opened: a folder the service may not read would otherwise end it
  // with an uncaught NotCapable at the first look for a model. The data folder first: the models
  // folder is in it by default, and a data folder that is a file, or outside the sandbox's
  // grant, is the one to name.
  const refusal = await dataDirRefusal("serve", dataDir, "write") ??
    await modelsDirRefusal("serve", modelsDir);
  if (refusal !== null) {
    console.error(refusal);
    return 2;
  }

  let stores;
  try {
    stores = openDataStores(dataDir);
  } catch (error) {
    if (!(error instanceof StorageError)) throw error;
    // A service that silently dropped history, glossaries and memory would surprise more than
    // one that refuses to start with the reason (DECISIONS: read-only data directory).
    console.error(
      `tolk serve: cannot use the data directory ${dataDir}: ${error.message}; ` +
        (OPEN_REMEDY[error.failure] ?? "pick a writable one with --data-dir or TOLK_DATA_DIR"),
    );
    return 2;
  }
  // A hint's `models pull` must pull where this service looks, the model its settings name.
  const pullFlags = pathFlagsForHint({ config: configPath, modelsDir });
  await reportMissingModel(settings, { modelsDir, pullFlags });
  const detector = await loadLanguageDetector();
  const pipeline = createEnginePipeline(settings, { modelsDir, pullFlags });
  const applyEngineSettings = engineSettingsSync(pipeline, settings, { modelsDir, pullFlags });
  const service = createTranslationApp({
    settings: store,
    detector,
    pipeline,
    stores,
    page: {
      modelsDir,
      applyEngineSettings,
      pathFlags: pullFlags,
    },
  });
  return { service, pipeline, stores };
}

/**
 * What to do about a database that cannot be opened, where another folder is not the answer:
 * the file holds the user's data, and tolk never starts over in its place.
 */
const OPEN_REMEDY: Partial<Record<StorageFailure, string>> = {
  corrupt: "it is left as it is: restore it from a backup, or move it aside to start a new one",
  newer: "it is left as it is: run the newer tolk, or pick another data directory with --data-dir",
};

/** On a first run with no model, one stderr line saying how to get one. */
async function reportMissingModel(
  settings: Settings,
  paths: { modelsDir: string; pullFlags: Record<string, string> },
): Promise<void> {
  if (!settings.engines.order.includes(BUILTIN_ENGINE_ID)) return;
  const id = settings.engines[BUILTIN_ENGINE_ID].model;
  const hint = missingModelHint(id, await inspectModel(paths.modelsDir, id), {
    ...paths,
    isDefault: true,
  });
  if (hint) console.error(`no model to translate with: ${hint}`);
}
