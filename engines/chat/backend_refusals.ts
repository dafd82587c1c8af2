/**
 * A backend's refusal that is not the request's fault, told apart from a failure: busy (wait
 * and ask again) or unavailable (`auto` tries the next engine). One reading for every chat
 * backend's answer (backend_http.ts).
 */
import type { EngineId } from "../../schemas/languages.ts";
import { EngineUnavailableError } from "../engine.ts";
import { EngineBusyError } from "../engine_queue.ts";

/** A backend that says it is busy (429, or 503 with `Retry-After`): retry in its time. */
export class BackendBusyError extends EngineBusyError {
  override name = "BackendBusyError";
  /** Why, without the engine's name (the message adds it once). */
  readonly reason: string;
  constructor(engine: EngineId, retryAfterSeconds: number, status: number, backendMessage: string) {
    super(engine, retryAfterSeconds);
    this.reason = `the backend answered HTTP ${status}` +
      `${backendMessage ? `: ${backendMessage}` : ""}; retry in ${retryAfterSeconds} s`;
    this.message = `${engine} is busy: ${this.reason}`;
  }
}

/** The longest wait passed on from a backend's `Retry-After`. */
const MAX_RETRY_AFTER_SECONDS = 60;

/**
 * How LM Studio words a 400 about the model rather than the request: "No models loaded. Please
 * load a model …" (since 0.3.x, earlier a 404), "Failed to load model "…". Error: …" (just-in-time
 * loading failed: too large for the memory), "Model is unloaded".
 */
const MODEL_NOT_LOADED = /^(no models loaded|failed to load model|model is unloaded)\b/i;

/**
 * How Ollama words the 503 of a full queue (`OLLAMA_MAX_QUEUE`), which carries no `Retry-After`:
 * "server busy, please try again.  maximum pending requests exceeded". Busy, not unavailable: a
 * job half done waits for it rather than losing its answers.
 */
const SAYS_BUSY = /^server busy\b/i;

/**
 * Ollama's 500 when its model did not load within its own load timeout (`OLLAMA_LOAD_TIMEOUT`,
 * 5 min by default, counted while the load makes no progress): "timed out waiting for llama
 * runner to start - progress 0.00 - …". Unavailable (503, `auto` tries the next engine), and not
 * asked again: the timeout measures a stall, not a slow start, and a second request starts a
 * load that stalls the same way, holding the client (and the engine's queue) for another whole
 * timeout. A slow start that our own `request_timeout_ms` cuts is asked again (`second_chances.ts`).
 */
const OLLAMA_LOAD_TIMED_OUT = /^timed out waiting for llama runner to start\b/i;

/** Statuses that say the engine cannot be used now, whatever the text (see {@link refusalOf}). */
const UNAVAILABLE_STATUSES = new Set([401, 403, 404, 502, 503]);

/**
 * A backend's refusal that is not the request's fault: busy (429, or 503 with `Retry-After`;
 * tolk infer's `server_busy`; Ollama's full queue) or unavailable (another 503: a model still
 * loading or failed; a 404: the model is gone or not loaded since the last model list, as Ollama
 * and LM Studio say; a 400 saying the model is not loaded, as LM Studio's later releases do; a
 * proxy's 502: it cannot reach the model server, as tolk itself could not; Ollama's 500 for a
 * model load that timed out; a 401 or 403: the
 * server refuses the key, so no text can be translated there — llama-server answers its model list
 * without a key, so the engine looked ready). A proxy's 504 stays a failure: its server took too long, as tolk's own
 * timeout says.
 */
export function refusalOf(
  engine: EngineId,
  response: Response,
  message: string,
): EngineUnavailableError | BackendBusyError | undefined {
  const retryAfter = response.headers.get("retry-after");
  if (
    response.status === 429 ||
    (response.status === 503 && (retryAfter !== null || SAYS_BUSY.test(message)))
  ) {
    return new BackendBusyError(engine, retryAfterSeconds(retryAfter), response.status, message);
  }
  if (
    UNAVAILABLE_STATUSES.has(response.status) ||
    ((response.status === 400 || response.ok) && MODEL_NOT_LOADED.test(message)) ||
    (response.status === 500 && OLLAMA_LOAD_TIMED_OUT.test(message))
  ) {
    return new EngineUnavailableError(
      engine,
      `the backend answered HTTP ${response.status}${message ? `: ${message}` : ""}`,
    );
  }
  return undefined;
}

/** `Retry-After` (seconds or an HTTP date) as whole seconds in 1..60; 1 when absent or odd. */
function retryAfterSeconds(header: string | null): number {
  if (header === null) return 1;
  const seconds = /^\d+$/.test(header.trim())
    ? Number(header)
    : (Date.parse(header) - Date.now()) / 1000;
  if (!Number.isFinite(seconds)) return 1;
  return Math.min(Math.max(Math.ceil(seconds), 1), MAX_RETRY_AFTER_SECONDS);
}
