/**
 * JSON over HTTP to an LLM backend, with the failures sorted the way the pipeline needs them:
 * cannot connect, a 503, a proxy's 502, a 404 (no such model, "No models loaded": LM Studio
 * without its model in memory) or a 400 saying the model is not loaded or failed to load (LM
 * Studio's later releases) → {@link EngineUnavailableError} (try another engine, 503 when named); a 429, or a
 * 503 with `Retry-After` → `BackendBusyError` (backend_refusals.ts) (503 with the server's `Retry-After`);
 * another HTTP error, a timeout, a body over its bound or one that is not JSON (nor, for a chat
 * request, a stream of JSON events: see {@link BackendRequest.assembleStream}) →
 * {@link EngineFailedError} (500). A redirect is never followed (it could send the user's text to
 * any host, past the loopback rule of the settings): {@link EngineUnavailableError}.
 */
import type { EngineId } from "../../schemas/languages.ts";
import { EngineFailedError, EngineUnavailableError } from "../engine.ts";
import { refusalOf } from "./backend_refusals.ts";
import { AnswerDroppedError, AnswerTimeoutError, endsMidJson } from "./cut_answers.ts";
import {
  clip,
  errorDetails,
  fetchFailure,
  redact,
  sentThenClosed,
  unreachable,
} from "./backend_messages.ts";
import {
  cutShortAnswer,
  STREAM_CONTENT_TYPE,
  STREAM_SIZE_FACTOR,
  type StreamEvents,
  streamEvents,
} from "./streamed_answer.ts";

/**
 * The root of a backend's server from its `base_url`: without a trailing `/`, nor the first of
 * the API's own `prefixes` at its end (LM Studio's and OpenAI's documents show the address with
 * `/v1`, Ollama's API reference with `/api`, clients' examples the chat endpoint's whole
 * address; the engines add their own paths, `/v1/models` or `/api/tags`, to the root).
 *
 * @example
 * ```ts
 * serverRoot("http://127.0.0.1:1234/v1/"); // "http://127.0.0.1:1234"
 * serverRoot("http://127.0.0.1:11434/api", ["/api/chat", "/api"]); // "http://127.0.0.1:11434"
 * ```
 */
export function serverRoot(
  baseUrl: string,
  prefixes: readonly string[] = ["/v1/chat/completions", "/v1"],
): string {
  const root = baseUrl.replace(/\/+$/, "");
  const prefix = prefixes.find((candidate) => root.endsWith(candidate));
  return prefix ? root.slice(0, -prefix.length) : root;
}

/** One request to a backend. */
export interface BackendRequest {
  engine: EngineId;
  url: string;
  method?: "GET" | "POST";
  body?: unknown;
  /**
   * Sent as `Authorization: Bearer …` when set, and replaced by `[redacted]` in whatever text of
   * the backend's we quote: a server may echo it ("Incorrect API key provided: …"), and a key
   * never appears in an error message or a log (DECISIONS.md).
   */
  apiKey?: string | null;
  /** Gives up after this long (settings `request_timeout_ms` / `probe_timeout_ms`). */
  timeoutMs: number;
  /**
   * Reads at most this many bytes of the answer's body (for a chat request:
   * {@link chatAnswerMaxBytes}); a longer body fails the request unread. Default
   * {@link DEFAULT_MAX_BYTES}.
   */
  maxBytes?: number;
  /** The caller's signal (client gone, shutdown): its abort reason is rethrown as is. */
  signal?: AbortSignal;
  /**
   * Assembles the one answer from the JSON events of a body that streams (SSE or NDJSON)
   * although the request asked for none, as some proxies do; without it such a body is not
   * JSON. A body labelled as a stream may take {@link STREAM_SIZE_FACTOR} times `maxBytes`.
   */
  assembleStream?: (stream: StreamEvents) => unknown;
}

/** A backend's non-2xx answer, with the message it gave (if any). */
export class BackendHttpError extends EngineFailedError {
  constructor(
    engine: EngineId,
    readonly status: number,
    readonly backendMessage: string,
    readonly backendCode: string | null,
    reason = `the backend answered HTTP ${status}${backendMessage ? `: ${backendMessage}` : ""}`,
  ) {
    super(engine, reason);
  }
}

/** What a header value can carry as the user wrote it: printable ASCII and tabs. */
const HEADER_TEXT = /^[\t\x20-\x7e]*$/;

/**
 * Bound on a body whose size nothing asked for sets: a model list (a runner with hundreds of
 * models, Ollama's entries being about 500 bytes each, stays far below it).
 */
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Bytes per generated token in {@link chatAnswerMaxBytes}: the longest entries of common
 * vocabularies are runs of a few dozen characters, and JSON escaping makes a control character
 * six bytes; 256 covers both with room.
 */
const BYTES_PER_TOKEN = 256;
/** The rest of a chat answer besides the generated text: ids, usage, timings, an error. */
const ANSWER_ENVELOPE_BYTES = 64 * 1024;

/**
 * Bound on the body answering a chat request limited to `maxTokens` generated tokens (reasoning
 * included, as the servers count it): a server that keeps to the limit never comes near it, and
 * one that runs on cannot make the service hold more than the request could need.
 */
export function chatAnswerMaxBytes(maxTokens: number): number {
  return maxTokens * BYTES_PER_TOKEN + ANSWER_ENVELOPE_BYTES;
}

/**
 * Sends a request and returns the parsed JSON body of a 2xx answer.
 *
 * @throws {EngineUnavailableError} when the backend cannot be reached, redirects, or `apiKey`
 *   cannot be sent as written.
 * @throws {BackendBusyError} for a 429, or a 503 with `Retry-After`.
 * @throws {EngineUnavailableError} for another 503, a 502, or a 404.
 * @throws {BackendHttpError} for another non-2xx answer, or a 2xx one whose body is an error.
 * @throws {AnswerDroppedError} when the connection drops in the middle of the answer, or the
 *   server closes it without answering.
 * @throws {AnswerTimeoutError} on timeout.
 * @throws {EngineFailedError} on a body over `maxBytes`, or one that is not a JSON object
 *   (for a chat request, a body whose JSON ends early is returned cut short instead).
 * @throws the caller's abort reason when `signal` aborts.
 */
export async function requestJson(sent: BackendRequest): Promise<unknown> {
  // The key as it goes out: fetch strips the white space around a header value (a key file's
  // trailing newline), and a server that echoes the key quotes it so, which is what to redact.
  const request = { ...sent, apiKey: sent.apiKey?.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "") };
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  const origin = new URL(request.url).origin;
  if (request.apiKey && !HEADER_TEXT.test(request.apiKey)) {
    // fetch refuses a header above U+00FF ("not a valid ByteString", which read as "cannot
    // reach") and sends U+0080..U+00FF as single bytes, not the UTF-8 the server would expect.
    throw new EngineUnavailableError(
      request.engine,
      "its api_key holds a character other than printable ASCII, which an Authorization " +
        "header cannot carry as written: correct it in the settings file",
    );
  }
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method ?? "GET",
      headers: {
        accept: "application/json",
        ...(request.body === undefined ? {} : { "content-type": "application/json" }),
        ...(request.apiKey ? { authorization: `Bearer ${request.apiKey}` } : {}),
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal,
      redirect: "manual",
    });
  } catch (error) {
    throw sortFailure(error, request, origin);
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw redirectRefusal(request, origin, response);
  }
  const streamed = request.assembleStream !== undefined &&
    STREAM_CONTENT_TYPE.test(response.headers.get("content-type") ?? "");
  const maxBytes = (request.maxBytes ?? DEFAULT_MAX_BYTES) * (streamed ? STREAM_SIZE_FACTOR : 1);
  let text: string | undefined;
  try {
    text = await readText(response, maxBytes);
  } catch (error) {
    throw sortFailure(error, request, origin, "while answering");
  }
  if (text === undefined) {
    throw new EngineFailedError(
      request.engine,
      `${origin} answered more than ${maxBytes} bytes, more than this request can need`,
    );
  }
  const body = parseBody(text, request.assembleStream);
  if (!response.ok) {
    const { message, code } = errorDetails(body, text, request.apiKey);
    throw refusalOf(request.engine, response, message) ??
      new BackendHttpError(request.engine, response.status, message, code);
  }
  // A chat answer whose JSON ends early is no answer, though whole on the wire: asked again.
  if (body === undefined && request.assembleStream && endsMidJson(text)) {
    return cutShortAnswer(`the server's answer ended before its JSON did (${text.length} chars)`);
  }
  if (body === undefined) {
    const what = request.assembleStream ? "neither JSON nor a stream of JSON events" : "not JSON";
    throw new EngineFailedError(request.engine, `${origin} answered with a body that is ${what}`);
  }
  // Every answer the engines read is an object; `null` would fail them as a TypeError, and
  // "holds no message content" would hide that the server answered something else entirely.
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new EngineFailedError(
      request.engine,
      `${origin} answered JSON that is not an object (${
        body === null ? "null" : Array.isArray(body) ? "an array" : `a ${typeof body}`
      })`,
    );
  }
  // Some proxies answer a failure as 200 with an error body (a stream's error event, as its
  // status was sent before): read as the same words in a non-2xx one would be.
  const { message, code } = errorDetails(body, text, request.apiKey);
  if (message !== "") {
    throw refusalOf(request.engine, response, message) ??
      new BackendHttpError(
        request.engine,
        response.status,
        message,
        code,
        `${origin} answered an error: ${message}`,
      );
  }
  return body;
}

/** The body as text, or undefined (the rest left unread) once it is over `maxBytes`. */
async function readText(response: Response, maxBytes: number): Promise<string | undefined> {
  if (!response.body) return "";
  if (Number(response.headers.get("content-length")) > maxBytes) {
    await response.body.cancel();
    return undefined;
  }
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  // Leaving the loop early cancels the stream, which drops the connection.
  for await (const chunk of response.body) {
    bytes += chunk.byteLength;
    if (bytes > maxBytes) return undefined;
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

/**
 * A backend answering a redirect is not at `base_url` as far as tolk is concerned: the settings
 * only let loopback servers see the user's text ("no request is forwarded elsewhere"), and a
 * redirect may name any host.
 */
function redirectRefusal(
  request: BackendRequest,
  origin: string,
  response: Response,
): EngineUnavailableError {
  const location = clip(redact(response.headers.get("location") ?? "nowhere", request.apiKey));
  return new EngineUnavailableError(
    request.engine,
    `${origin} answered HTTP ${response.status} redirecting to ${location}; redirects are not ` +
      `followed (no request leaves the configured server): set base_url to the server's own address`,
  );
}

/**
 * A failed fetch or body read as the pipeline's error. `phase` says the server had begun its
 * answer: a connection dropped then (a runner that crashed mid-generation) is no sign that the
 * server cannot be reached, and the user should not go looking for one that is not running; nor
 * is a timeout then "no answer" (a stream that stalled). A connection the server took and closed
 * before its answer's head is the same crash for a request that does not stream (Ollama sends its
 * head with the whole answer): only a failure to connect is "cannot reach".
 */
function sortFailure(
  error: unknown,
  request: BackendRequest,
  origin: string,
  phase: "while answering" | "before answering" = "before answering",
): unknown {
  if (request.signal?.aborted) return request.signal.reason;
  if (error instanceof DOMException && error.name === "TimeoutError") {
    const late = phase === "while answering"
      ? `${origin} did not finish its answer within ${request.timeoutMs} ms`
      : `no answer from ${origin} within ${request.timeoutMs} ms`;
    return new AnswerTimeoutError(request.engine, late, { cause: error });
  }
  // fetch rejects with a TypeError when it cannot connect or the connection drops.
  const detail = clip(redact(fetchFailure(error), request.apiKey));
  if (phase === "while answering") {
    return new AnswerDroppedError(
      request.engine,
      `${origin} dropped the connection in the middle of its answer (${detail})`,
      { cause: error },
    );
  }
  if (sentThenClosed(detail)) {
    return new AnswerDroppedError(
      request.engine,
      `${origin} closed the connection without answering (${detail})`,
      { cause: error },
    );
  }
  return new EngineUnavailableError(request.engine, unreachable(request.engine, origin, detail), {
    cause: error,
    detail,
  });
}

/** The body as JSON, else as the answer `assemble` makes of its stream events, else undefined. */
function parseBody(text: string, assemble: BackendRequest["assembleStream"]): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const events = assemble ? streamEvents(text) : undefined;
    return events && assemble ? assemble(events) : undefined;
  }
}
