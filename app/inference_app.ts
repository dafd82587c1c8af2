/**
 * `createInferenceApp`: the one place where `tolk infer` is composed. Every path of the daemon
 * is listed here:
 *
 * | method | path                  | auth (when SVC_API_KEY is set) |
 * |--------|-----------------------|--------------------------------|
 * | GET    | /health               | none                           |
 * | GET    | /v1/status            | bearer key                     |
 * | GET    | /v1/models            | bearer key                     |
 * | GET    | /v1/models/{model}    | bearer key                     |
 * | POST   | /v1/chat/completions  | bearer key                     |
 */
import { type Context, Hono } from "hono";
import { cors } from "hono/cors";
import { getConnInfo } from "hono/deno";
import { inferenceError, renderInferenceError } from "../errors/inference_errors.ts";
import { logUnexpected } from "../errors/log_unexpected.ts";
import type { InferenceRuntime } from "../inference/generation.ts";
import { accessLog } from "../middleware/access_log.ts";
import { apiKeyAuth } from "../middleware/api_key_auth.ts";
import { bufferedBody } from "../middleware/buffered_body.ts";
import { concurrencyLimit } from "../middleware/concurrency_limit.ts";
import { hostCheck } from "../middleware/host_check.ts";
import { rateLimit } from "../middleware/rate_limit.ts";
import { headLength } from "../middleware/head_length.ts";
import { requestId, type RequestIdVariables } from "../middleware/request_id.ts";
import { chatCompletionsRoute } from "../routes/infer/chat_completions.ts";
import { healthRoute } from "../routes/infer/health.ts";
import { modelsRoute } from "../routes/infer/models.ts";
import { statusRoute } from "../routes/infer/status.ts";

/** A request body that has not fully arrived after this long is dropped with 408. */
const BODY_TIMEOUT_MS = 30_000;

/** Seconds a busy client is told to wait before retrying. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * Milliseconds a request finding every slot and queue place taken waits before server_busy: a
 * client that aborts a stream and retries at once is read on its new connection ~1–2 ms before
 * the old one is seen to close (measured on loopback), so the slot it gave up frees just after.
 */
const BUSY_GRACE_MS = 100;

/** Everything the inference daemon is built from. */
export interface InferenceAppDeps {
  runtime: InferenceRuntime;
  modelPath: string;
  /** `http://HOST:PORT`, known once the server listens. */
  endpoint: () => string;
  /** Check the Host header (loopback binds). Default true. */
  hostCheck?: boolean;
  /** The only origin given CORS headers; none when absent. */
  corsOrigin?: string;
  /** `SVC_API_KEY`; enforced on every /v1/* request when set. */
  apiKey?: string;
  /** The limits and switches below come from the flags, whose schema holds their defaults. */
  maxRequestBytes: number;
  maxConcurrentRequests: number;
  /** Requests waiting for a slot beyond `maxConcurrentRequests` (0: refuse at once). */
  maxQueuedRequests: number;
  /** 0 = unlimited. */
  requestsPerMinute: number;
  exposeModelPath: boolean;
  /** Milliseconds a request body may take to arrive (default 30 s); then 408. */
  bodyTimeoutMs?: number;
  /** Epoch seconds of start (default now). */
  startedAt?: number;
  /** Where log lines go (never request contents); default stderr. */
  log?: (line: string) => void;
}

/**
 * Builds the inference daemon's Hono app.
 *
 * @example
 * ```ts
 * const app = createInferenceApp({ runtime, modelPath, endpoint: () => server.url, ...inferAppOptions(flags) });
 * Deno.serve({ hostname: "127.0.0.1", port: 0 }, app.fetch);
 * ```
 */
export function createInferenceApp(deps: InferenceAppDeps) {
  const log = deps.log ?? ((line: string) => console.error(line));
  const app = new Hono<{ Variables: RequestIdVariables }>();

  app.use(requestId());
  app.use(headLength());
  app.use(accessLog({ write: log }));
  app.use(hostCheck({
    enabled: deps.hostCheck ?? true,
    reject: (message) => inferenceError("host_not_allowed", message),
  }));
  if (deps.corsOrigin) {
    app.use(cors({
      origin: deps.corsOrigin,
      // No list: the headers a preflight asks for are allowed, for the one origin named. The
      // `openai` client sends its own (`X-Stainless-*`) from a browser; a fixed list refused it.
      allowMethods: ["GET", "POST", "OPTIONS"],
      exposeHeaders: ["X-Request-Id", "Retry-After"],
      maxAge: 600,
    }));
  }
  if (deps.apiKey) {
    app.use(
      "/v1/*",
      apiKeyAuth({
        key: deps.apiKey,
        reject: () =>
          inferenceError("invalid_api_key", "missing or wrong API key (Authorization: Bearer)"),
      }),
    );
  }
  const perMinute = deps.requestsPerMinute;
  if (perMinute > 0) {
    app.use(
      "/v1/*",
      rateLimit({
        requestsPerMinute: perMinute,
        // With a key in force every admitted request carries that key: one bucket for the key.
        keyOf: deps.apiKey ? () => "key" : clientAddress,
        reject: (retryAfter) =>
          inferenceError("rate_limit_exceeded", `more than ${perMinute} requests per minute`, {
            retryAfter,
          }),
      }),
    );
  }
  const bodyTimeoutMs = deps.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  // The body is read before a generation slot is taken: a slow upload holds only its connection.
  app.use(
    "/v1/*",
    bufferedBody({
      maxSize: deps.maxRequestBytes,
      tooLarge: () =>
        inferenceError("request_too_large", "request body is larger than --max-request-bytes"),
      timeoutMs: bodyTimeoutMs,
      timeout: () =>
        inferenceError(
          "request_timeout",
          `the request body did not arrive within ${bodyTimeoutMs / 1000} s`,
        ),
    }),
  );
  const maxConcurrent = deps.maxConcurrentRequests;
  const maxQueued = deps.maxQueuedRequests;
  const slots = concurrencyLimit({
    max: maxConcurrent,
    queue: maxQueued,
    graceMs: BUSY_GRACE_MS,
    reject: () =>
      inferenceError(
        "server_busy",
        maxConcurrent === 1
          ? `1 generation is running and ${maxQueued} waiting`
          : `${maxConcurrent} generations are running and ${maxQueued} waiting`,
        { retryAfter: BUSY_RETRY_AFTER_SECONDS },
      ),
  });
  // POST only: a wrong method is answered 404 at once, without taking (or waiting for) a slot.
  app.on("POST", "/v1/chat/completions", slots);
  app.route("/health", healthRoute({ runtime: deps.runtime }));
  app.route(
    "/v1/status",
    statusRoute({
      runtime: deps.runtime,
      modelPath: deps.modelPath,
      exposeModelPath: deps.exposeModelPath,
      startedAt: deps.startedAt ?? Math.floor(Date.now() / 1000),
      endpoint: deps.endpoint,
      load: slots.load,
    }),
  );
  app.route("/v1/models", modelsRoute({ runtime: deps.runtime }));
  app.route("/v1/chat/completions", chatCompletionsRoute({ runtime: deps.runtime, log }));

  app.notFound((c) => {
    throw inferenceError("not_found", notFoundMessage(c.req.method, c.req.path, app.routes));
  });
  app.onError((thrown, c) => {
    const rendered = renderInferenceError(thrown);
    if (rendered.unexpected) logUnexpected(log, c.get("requestId"), thrown);
    return c.json(rendered.body, rendered.status as 400, rendered.headers);
  });
  return app;
}

/** Longest part of a request path an error message repeats. */
const MAX_ECHOED_PATH = 200;

/**
 * `no such endpoint: METHOD PATH`, and the methods the path answers when it is served: a wrong
 * method stays a 404, as llama-server and OpenAI ("Invalid URL (GET /v1/chat/completions)")
 * answer it, but says what would have worked.
 */
function notFoundMessage(
  method: string,
  path: string,
  routes: ReadonlyArray<{ method: string; path: string }>,
): string {
  const shown = path.length > MAX_ECHOED_PATH ? `${path.slice(0, MAX_ECHOED_PATH)}…` : path;
  const answers = new Set(
    routes
      .filter((route) => route.method !== "ALL" && routePattern(route.path).test(path))
      .map((route) => route.method),
  );
  const served = answers.size === 0 ? "" : ` (this path answers ${[...answers].join(", ")})`;
  return `no such endpoint: ${method} ${shown}${served}`;
}

/** A route path (`/v1/models/:model`) as a RegExp of the paths it serves. */
function routePattern(routePath: string): RegExp {
  const escaped = routePath.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${escaped.replace(/:[^/]+/g, "[^/]+")}$`);
}

/** Rate-limit bucket of a keyless daemon: the client's address. */
function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown"; // served without connection info (e.g. app.request in a script)
  }
}
