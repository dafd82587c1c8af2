/**
 * `createTranslationApp`: the one place where `tolk serve` is composed. Every path of the
 * service is listed here.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import type { LanguageDetector } from "../detection/language_detector.ts";
import type { EnginePipeline } from "../engines/engine_pipeline.ts";
import { logRendered, renderTranslationError, serviceError } from "../errors/translation_errors.ts";
import { accessLog, bufferedStderr } from "../middleware/access_log.ts";
import { clientHeader, type ClientHeaderVariables } from "../middleware/client_header.ts";
import { hostCheck } from "../middleware/host_check.ts";
import { headLength } from "../middleware/head_length.ts";
import { noStore } from "../middleware/no_store.ts";
import { requestId, type RequestIdVariables } from "../middleware/request_id.ts";
import { type RefusalReason, tokenAuth } from "../middleware/token_auth.ts";
import { capabilitiesRoute } from "../routes/serve/capabilities.ts";
import type { CompatRouteDeps } from "../routes/serve/compat/compat_app.ts";
import { deeplRoute } from "../routes/serve/compat/deepl.ts";
import { dataBodyLimit, GLOSSARY_BODY_MIB } from "../routes/serve/data_body_limit.ts";
import { deeplxRoute } from "../routes/serve/compat/deeplx.ts";
import { libreTranslateRoute } from "../routes/serve/compat/libretranslate.ts";
import { detectRoute } from "../routes/serve/detect.ts";
import { healthRoute } from "../routes/serve/health.ts";
import { openApiRoute } from "../routes/serve/openapi.ts";
import { translateRoute } from "../routes/serve/translate.ts";
import {
  closeSockets,
  type SocketRegistry,
  wsTranslateRoute,
} from "../routes/serve/ws_translate.ts";
import { pageHeaders, sameOrigin } from "../middleware/page_security.ts";
import { requireSettingsSession, SettingsSessions } from "../middleware/settings_session.ts";
import { settingsApiRoute } from "../routes/serve/settings_api.ts";
import { settingsPageRoute } from "../routes/serve/settings_page.ts";
import { API_ROUTES, servedApiRoutes } from "../schemas/api_routes.ts";
import { featureFlags, PLAIN_TEXT_FEATURES, type RegisteredFeatures } from "../schemas/features.ts";
import { REGISTERED_FORMATS } from "../translation/formats/formats.ts";
import type { Settings } from "../schemas/settings.ts";
import {
  apiDisabledMessage,
  CONFIG_FILE_NOTE,
  settingsLinkCommand,
} from "../settings/link_hint.ts";
import { LinkRequestVerifier } from "../settings/settings_link.ts";
import type { SettingsStore } from "../settings/settings_store.ts";
import { glossaryCreateRoute } from "../routes/serve/glossary_create.ts";
import { glossaryDeleteRoute } from "../routes/serve/glossary_delete.ts";
import { glossaryDictionaryDeleteRoute } from "../routes/serve/glossary_dictionary_delete.ts";
import { glossaryEntriesRoute } from "../routes/serve/glossary_entries.ts";
import { glossaryGetRoute } from "../routes/serve/glossary_get.ts";
import { glossaryListRoute } from "../routes/serve/glossary_list.ts";
import { glossaryPatchRoute } from "../routes/serve/glossary_patch.ts";
import { memoryEntriesAddRoute } from "../routes/serve/memory_entries_add.ts";
import { memoryEntriesListRoute } from "../routes/serve/memory_entries_list.ts";
import { memoryEntryDeleteRoute } from "../routes/serve/memory_entry_delete.ts";
import { memoryExportRoute } from "../routes/serve/memory_export.ts";
import { memoryImportRoute } from "../routes/serve/memory_import.ts";
import { historyClearRoute } from "../routes/serve/history_clear.ts";
import { historyDeleteRoute } from "../routes/serve/history_delete.ts";
import { historyListRoute } from "../routes/serve/history_list.ts";
import type { DataStores } from "../storage/data_stores.ts";
import { createFailureLog } from "../storage/failure_log.ts";
import { GlossaryMatchers } from "../translation/glossary/glossary_step.ts";

/** Largest request body: 50000 code points of 4 UTF-8 bytes, JSON escaping and the envelope. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Token-protected paths of the data routes. */
const DATA_PATHS = [
  "/v1/history",
  "/v1/history/*",
  "/v1/glossaries",
  "/v1/glossaries/*",
  "/v1/memory/*",
];

/** Paths whose answers carry the user's stored text: the data routes and DeepL's glossaries. */
const PRIVATE_PATHS = [
  ...DATA_PATHS,
  "/v1/compat/deepl/v2/glossaries",
  "/v1/compat/deepl/v2/glossaries/*",
  "/v1/compat/deepl/v3/glossaries",
  "/v1/compat/deepl/v3/glossaries/*",
];

/** Everything the translation service is built from. */
export interface TranslationAppDeps {
  settings: SettingsStore;
  detector: LanguageDetector;
  pipeline: EnginePipeline;
  /** What is registered (formats, glossary and memory stores); default: the format modules. */
  registered?: RegisteredFeatures;
  /** History, glossaries and memory; without them those routes do not exist. */
  stores?: DataStores;
  /** Where log lines go (never request contents); default stderr. */
  log?: (line: string) => void;
  /** Serves the settings page (`/settings`) when given. */
  page?: SettingsPageOptions;
}

/** What the settings page needs besides the settings store and the pipeline. */
export interface SettingsPageOptions {
  /** Where local models are looked for. */
  modelsDir: string;
  /** Rebuilds the engines whose settings changed (`engineSettingsSync` of the engine registry). */
  applyEngineSettings: (settings: Settings) => void;
  /**
   * The `--config`/`--models-dir` this service was started with where they are not the defaults
   * (cli/config_paths.ts `pathFlagsForHint`), for the commands the page shows; default none.
   */
  pathFlags?: Record<string, string>;
}

/** The access log's status of a request its client closed before the answer (nginx's). */
const CLIENT_CLOSED_REQUEST = 499;

/** The composed service. */
export interface TranslationApp {
  app: Hono<{ Variables: RequestIdVariables & ClientHeaderVariables }>;
  /**
   * Marks the service as stopping (new requests and upgrades get 503 while the rest drains);
   * each WebSocket answers the frames it accepted, then closes with 1001 — after `withinMs` at
   * the latest, answered or not, so that no socket is dropped without a close frame when the
   * process exits at the drain's bound. Settles when all are closed.
   */
  beginShutdown(withinMs: number): Promise<void>;
}

/**
 * Builds the translation service.
 *
 * @example
 * ```ts
 * const { app } = createTranslationApp({ settings, detector, pipeline });
 * Deno.serve({ hostname: "127.0.0.1", port: 0 }, app.fetch);
 * ```
 */
export function createTranslationApp(deps: TranslationAppDeps): TranslationApp {
  const log = deps.log ?? bufferedStderr();
  const startedAt = Date.now(); // Date.now: performance.now is a slower runtime call in Deno
  const sockets: SocketRegistry = new Map();
  let shuttingDown = false;
  // Read once per request by the one authorize() of HTTP and WebSocket alike.
  const access = () => deps.settings.current().api;
  const disabled = apiDisabledMessage(deps.page?.pathFlags?.config !== undefined);
  // An edit of the settings file while the service runs reaches the engines as it reaches the
  // token: at the next request that reads the settings (every one with a token, and
  // capabilities, where a user looks after an edit).
  if (deps.page) deps.settings.onChange(deps.page.applyEngineSettings);

  const app = new Hono<{ Variables: RequestIdVariables & ClientHeaderVariables }>();
  app.use(requestId());
  app.use(headLength());
  // Health is polled by every client; logging it cost a fifth of its throughput (BENCHMARKS.md).
  // Compat paths may carry the token (`/v1/compat/t/<token>/…`): logged as the prefix alone.
  app.use(accessLog({ write: log, quietPaths: ["/v1/health"], privatePrefixes: ["/v1/compat/"] }));
  app.use(hostCheck({
    reject: (message) => serviceError("host_not_allowed", message),
  }));
  // While WebSockets finish their frames the listener still accepts (Deno's server.shutdown
  // would drop them): what arrives then is refused, not started (health says it is stopping).
  // The compat sub-apps run this refusal themselves, so it reaches their clients in the shape
  // those clients read (a DeepL client shows tolk's error object as "[object Object]").
  const refuseWhileStopping: MiddlewareHandler = async (_, next) => {
    if (shuttingDown) throw serviceError("engine_unavailable", "the service is shutting down");
    await next();
  };
  app.use(async (c, next) => {
    const { path } = c.req;
    if (path === "/v1/health" || path.startsWith("/v1/compat/")) return await next();
    return await refuseWhileStopping(c, next);
  });
  // Middleware sits only on the paths that need it: each layer costs throughput (BENCHMARKS.md).
  // Before the token check, so that its refusals are covered too. (Translate and detect answer
  // POSTs, which no browser or proxy reuses without an explicit freshness: none is given.)
  for (const path of PRIVATE_PATHS) app.use(path, noStore());
  const authenticated = ["/v1/detect", "/v1/translate"];
  for (const path of authenticated) {
    app.use(path, bodyLimit({ maxSize: MAX_BODY_BYTES }));
  }
  // A TMX file of a large memory may be bigger than a glossary.
  app.use("/v1/glossaries/*", dataBodyLimit(GLOSSARY_BODY_MIB));
  app.use("/v1/glossaries", dataBodyLimit(GLOSSARY_BODY_MIB));
  app.use("/v1/memory/*", dataBodyLimit(64));
  for (const path of [...authenticated, ...DATA_PATHS]) {
    app.use(path, tokenAuth({ access, reject: unauthorized(disabled) }));
  }
  for (const path of [...authenticated, "/v1/ws/translate"]) {
    app.use(path, clientHeader({ reject: badClientHeader }));
  }
  // Browser extensions call the compat routes from chrome-extension:// origins. Any origin is
  // safe there because the token is never ambient (no cookie); request headers are reflected
  // because each client sends its own. Never on the settings page, which is cookie-based.
  // A page's script reads no other response header than the CORS-safelisted ones unless it is
  // exposed: Retry-After of a 429/503 says when to try again, x-request-id names the request.
  app.use(
    "/v1/compat/*",
    cors({ origin: "*", maxAge: 86400, exposeHeaders: ["Retry-After", "X-Request-Id"] }),
  );

  // One table gives both the capabilities flags and the translate path's refusals.
  // Glossaries and memory are on exactly when their stores are registered.
  const features = featureFlags({
    ...(deps.registered ?? { ...PLAIN_TEXT_FEATURES, formats: REGISTERED_FORMATS }),
    glossary: deps.stores !== undefined,
    memory: deps.stores !== undefined,
  });
  const translation = {
    detector: deps.detector,
    pipeline: deps.pipeline,
    history: deps.stores?.history,
    historyEnabled: () => deps.settings.current().history.enabled,
    glossaries: deps.stores && new GlossaryMatchers(deps.stores.glossaries),
    memory: deps.stores?.memory,
    failures: createFailureLog(log),
    features,
    log,
  };
  app.route(
    "/v1/health",
    healthRoute({
      pipeline: deps.pipeline,
      startedAt,
      isShuttingDown: () => shuttingDown,
    }),
  );
  app.use("/v1/capabilities", async (_, next) => {
    deps.settings.current();
    await next();
  });
  app.route("/v1/capabilities", capabilitiesRoute({ pipeline: deps.pipeline, features }));
  app.route(
    "/v1/openapi.json",
    openApiRoute({ routes: servedApiRoutes({ stores: deps.stores !== undefined }) }),
  );
  app.route("/v1/detect", detectRoute({ detector: deps.detector }));
  app.route("/v1/translate", translateRoute(translation));
  app.route(
    "/v1/ws/translate",
    wsTranslateRoute({
      ...translation,
      access,
      reject: wsUnauthorized(disabled),
      sockets,
      isShuttingDown: () => shuttingDown,
      log,
    }),
  );

  // Data: the user's history, glossaries and translation memory (one database).
  if (deps.stores) {
    const { history, glossaries, memory } = deps.stores;
    app.route("/v1/history", historyListRoute({ history }));
    app.route("/v1/history", historyClearRoute({ history }));
    app.route("/v1/history", historyDeleteRoute({ history }));
    app.route("/v1/glossaries", glossaryCreateRoute({ glossaries }));
    app.route("/v1/glossaries", glossaryListRoute({ glossaries }));
    app.route("/v1/glossaries", glossaryGetRoute({ glossaries }));
    app.route("/v1/glossaries", glossaryEntriesRoute({ glossaries }));
    app.route("/v1/glossaries", glossaryPatchRoute({ glossaries }));
    app.route("/v1/glossaries", glossaryDictionaryDeleteRoute({ glossaries }));
    app.route("/v1/glossaries", glossaryDeleteRoute({ glossaries }));
    app.route("/v1/memory/entries", memoryEntriesListRoute({ memory }));
    app.route("/v1/memory/entries", memoryEntriesAddRoute({ memory }));
    app.route("/v1/memory/entries", memoryEntryDeleteRoute({ memory }));
    app.route("/v1/memory/import", memoryImportRoute({ memory }));
    app.route("/v1/memory/export", memoryExportRoute({ memory }));
  }

  // Compatibility: clients that speak DeepL, LibreTranslate or DeepLX (URL-only ones put the
  // token in the path).
  const compat: CompatRouteDeps = {
    translation,
    currentToken: () => {
      const api = access();
      return api.enabled ? api.token : null;
    },
    disabledMessage: disabled,
    policy: () => deps.settings.current().compat,
    log,
    refuseWhileStopping,
  };
  // DeepLX's /v2/translate is DeepL's handler: both take DeepL's glossary_id.
  const withGlossaries = { ...compat, glossaries: deps.stores?.glossaries };
  app.route("/v1/compat/deepl", deeplRoute(withGlossaries));
  app.route("/v1/compat/libre", libreTranslateRoute(compat));
  app.route("/v1/compat/deeplx", deeplxRoute(withGlossaries));
  app.route("/v1/compat/t/:token/libre", libreTranslateRoute(compat));
  app.route("/v1/compat/t/:token/deeplx", deeplxRoute(withGlossaries));

  // Settings: a page, not API — session cookie only, same origin only (DECISIONS.md).
  if (deps.page) {
    mountSettingsPage(app, { ...deps.page, settings: deps.settings, pipeline: deps.pipeline });
  }

  app.notFound((c) => {
    // Answered, not thrown: a throw would skip what middleware adds after `next()` (the settings
    // page's no-store and CSP on a 404 under /settings/).
    const { body, status, headers } = renderTranslationError(
      serviceError("not_found", "no such endpoint; see GET /v1/capabilities"),
    );
    return c.json(body, status as 404, headers);
  });
  app.onError((thrown, c) => {
    if (c.req.raw.signal.aborted) {
      // The client left and its work was stopped for it: routine, and nobody reads an answer
      // (nginx's 499 in the access line, not a 500 with a stack trace).
      log(`${c.get("requestId")} client closed the request`);
      return new Response(null, { status: CLIENT_CLOSED_REQUEST });
    }
    const rendered = renderTranslationError(thrown);
    logRendered(log, { requestId: c.get("requestId"), thrown, unexpected: rendered.unexpected });
    return c.json(rendered.body, rendered.status as 400, rendered.headers);
  });

  return {
    app,
    async beginShutdown(withinMs) {
      shuttingDown = true;
      await closeSockets(sockets, withinMs);
    },
  };
}

function mountSettingsPage(
  app: Hono<{ Variables: RequestIdVariables & ClientHeaderVariables }>,
  deps: SettingsPageOptions & { settings: SettingsStore; pipeline: EnginePipeline },
) {
  const sessions = new SettingsSessions();
  app.use("/settings", pageHeaders());
  app.use("/settings/*", pageHeaders());
  app.use("/settings/link", bodyLimit({ maxSize: 4096 }));
  app.use("/settings/api/*", bodyLimit({ maxSize: 64 * 1024 }));
  app.use(
    "/settings/api/*",
    requireSettingsSession({
      sessions,
      reject: (host) => {
        const customConfig = deps.pathFlags?.config !== undefined;
        const command = settingsLinkCommand(host, { config: customConfig ? "FILE" : null });
        const note = customConfig ? ` (${CONFIG_FILE_NOTE})` : "";
        return serviceError(
          "unauthorized",
          `no settings session: run \`${command}\`${note} and open the link it prints`,
        );
      },
    }),
  );
  app.use(
    "/settings/api/*",
    sameOrigin({
      reject: () =>
        serviceError("origin_not_allowed", "the settings page only answers its own origin"),
    }),
  );
  app.route(
    "/settings",
    settingsPageRoute({
      settings: deps.settings,
      sessions,
      links: new LinkRequestVerifier(),
      pathFlags: deps.pathFlags ?? {},
    }),
  );
  app.route("/settings/api", settingsApiRoute({ ...deps, sessions, routes: API_ROUTES }));
}

/** The 401 of a refused token, `disabled` said while the API is off. */
function unauthorized(disabled: string) {
  return (reason: RefusalReason) =>
    serviceError(
      "unauthorized",
      reason === "disabled"
        ? disabled
        : "missing or invalid API token (send X-Svc-Token or Authorization: Bearer)",
    );
}

function wsUnauthorized(disabled: string) {
  return (reason: RefusalReason) =>
    serviceError(
      "ws_unauthorized",
      reason === "disabled" ? disabled : "missing, invalid or revoked API token",
    );
}

function badClientHeader() {
  return serviceError(
    "invalid_request",
    "X-Svc-Client must be 1 to 128 printable ASCII characters",
    { param: "X-Svc-Client" },
  );
}
