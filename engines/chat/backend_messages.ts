/**
 * What a backend's body says, as tolk quotes it: the message of an error body in the shapes
 * servers use, a proxy's HTML page by its title, one line cut at 300 characters, and never the
 * API key (a server may echo it: "Incorrect API key provided: …"); and why a fetch failed.
 *
 * Pure: no I/O.
 */
import type { EngineId } from "../../schemas/languages.ts";

const MAX_MESSAGE_CHARS = 300;
const REDACTED = "[redacted]";

/**
 * The message of an OpenAI-style `{error: {message, code}}`, an Ollama-style `{error: "…"}`,
 * vLLM's `{object: "error", message}` (its shape before OpenAI's) or a FastAPI server's
 * `{detail: "…"}`, without `apiKey`.
 */
export function errorDetails(
  body: unknown,
  text: string,
  apiKey: string | null | undefined,
): { message: string; code: string | null } {
  const error = (body as { error?: unknown } | undefined)?.error;
  let message = body === undefined ? pageText(text) : "";
  let code: string | null = null;
  const top = (body ?? {}) as { object?: unknown; message?: unknown; detail?: unknown };
  if (top.object === "error" && typeof top.message === "string") message = top.message;
  else if (typeof top.detail === "string") message = top.detail;
  if (typeof error === "string") message = error;
  else if (typeof error === "object" && error !== null) {
    const details = error as { message?: unknown; code?: unknown };
    message = typeof details.message === "string" ? details.message : "";
    code = typeof details.code === "string" ? details.code : null;
  }
  // Redacted before clipping, so that a cut cannot leave the start of the key behind.
  return { message: clip(redact(message, apiKey)), code };
}

/**
 * What a body that is not JSON says: an HTML page (a proxy's error page, nginx's "502 Bad
 * Gateway") by its title, else by its text without the markup; any other text as it is.
 */
function pageText(text: string): string {
  if (!/^\s*</.test(text)) return text;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1].trim();
  return title || text.replace(/<[^>]*>/g, " ");
}

/** `text` with `apiKey` replaced by `[redacted]`. */
export function redact(text: string, apiKey: string | null | undefined): string {
  return apiKey ? text.replaceAll(apiKey, REDACTED) : text;
}

/** `message` on one line, cut at 300 characters: how a server's words are quoted. */
export function clip(message: string): string {
  const oneLine = message.replace(/\s+/g, " ").trim();
  return oneLine.length > MAX_MESSAGE_CHARS ? `${oneLine.slice(0, MAX_MESSAGE_CHARS)}…` : oneLine;
}

/**
 * What went wrong under a fetch failure: Deno's TypeError says only "fetch failed", its cause
 * says why ("tcp connect error: Connection refused", "connection closed before message
 * completed").
 */
export function fetchFailure(error: unknown): string {
  let said = error instanceof Error ? error.message : String(error);
  for (let cause = (error as Error)?.cause, depth = 0; cause && depth < 4; depth++) {
    if (cause instanceof Error && cause.message) said = cause.message;
    cause = (cause as Error).cause;
  }
  return said;
}

/**
 * Whether a fetch failure (as {@link fetchFailure} words it) is a request sent on a connection
 * the server then closed or reset, as Deno's fetch (hyper) says it, unlike a failure to connect
 * ("client error (Connect): tcp connect error: …").
 */
export function sentThenClosed(failure: string): boolean {
  return /\(SendRequest\)|connection closed before message completed/.test(failure);
}

/**
 * A failure to connect in a few words, for the client: Deno's own ("error sending request for
 * url (…): client error (Connect): tcp connect error: Connection refused (os error 111)") go to
 * the service log. Checked in order; a failure none of them names is quoted as it is.
 */
const CONNECT_CAUSES: readonly [RegExp, string][] = [
  [/Connection refused/i, "connection refused"],
  [/dns error|failed to lookup address/i, "the host name does not resolve"],
  [/timed out/i, "the connection timed out"],
  [/Network is unreachable/i, "the network is unreachable"],
  [/No route to host|Host is unreachable/i, "no route to the host"],
];

/** The server each engine talks to, as the user started it. */
const SERVER_NAMES: Partial<Record<EngineId, string>> = {
  "engine-one": "Ollama",
  "engine-two": "LM Studio's server",
};

/**
 * Why `engine` cannot reach `origin`, short: `cannot reach ORIGIN (connection refused) — is
 * Ollama running?` for a failure to connect that {@link CONNECT_CAUSES} names, else with
 * `failure` (as {@link fetchFailure} words it) in the parentheses.
 *
 * @example
 * ```ts
 * unreachable("engine-one", "http://127.0.0.1:11434", "… tcp connect error: Connection refused");
 * // "cannot reach http://127.0.0.1:11434 (connection refused) — is Ollama running?"
 * ```
 */
export function unreachable(engine: EngineId, origin: string, failure: string): string {
  const cause = CONNECT_CAUSES.find(([pattern]) => pattern.test(failure))?.[1];
  if (cause === undefined) return `cannot reach ${origin} (${failure})`;
  // Refused: nothing listens there, the one cause the user fixes by starting the server.
  const running = cause === "connection refused"
    ? ` — is ${SERVER_NAMES[engine] ?? "the server"} running?`
    : "";
  return `cannot reach ${origin} (${cause})${running}`;
}
