/**
 * One stderr line per request: request id, method, route, status and time — never a body, a
 * header value, a query string (tokens travel in queries on WebSocket handshakes) or the path the
 * client sent: the line names the route's pattern (`/v1/glossaries/:id`), so a percent-encoded
 * line break or NUL in a URL can never forge or break a log line.
 */
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { RequestIdVariables } from "./request_id.ts";

/** What a line says for a request no route matched (its path is the client's, not ours). */
export const NO_ROUTE = "(no route)";

/** Options of {@link accessLog}. */
export interface AccessLogOptions {
  /** Where lines go; default {@link bufferedStderr}. Pass `() => {}` to silence. */
  write?: (line: string) => void;
  /** Paths answered without a line: liveness probes, polled often, would bury the rest. */
  quietPaths?: readonly string[];
  /**
   * Path prefixes logged as the prefix alone: paths under them may carry a token
   * (`/v1/compat/t/<token>/…`), so nothing after the prefix is written, matched or not.
   */
  privatePrefixes?: readonly string[];
}

/** A line writer that batches; {@link BufferedWriter.flush} writes what is pending at once. */
export interface BufferedWriter {
  (line: string): void;
  /** Writes every pending line now (on shutdown, before the process exits). */
  flush(): void;
}

/**
 * A line writer to stderr that batches lines for up to `delayMs`: one synchronous console
 * write per request cost more than a third of the health endpoint's throughput (BENCHMARKS.md).
 * Pending lines are also written when the process exits (`Deno.exit` dispatches `unload`), so a
 * shutdown never loses the lines of the requests it drained.
 */
export function bufferedStderr(delayMs = 50): BufferedWriter {
  const encoder = new TextEncoder();
  let pending: string[] = [];
  function flush() {
    if (pending.length === 0) return;
    const text = pending.join("\n") + "\n";
    pending = [];
    Deno.stderr.writeSync(encoder.encode(text));
  }
  globalThis.addEventListener("unload", flush);
  function writeLine(line: string) {
    if (pending.push(line) > 1) return;
    Deno.unrefTimer(setTimeout(flush, delayMs));
  }
  return Object.assign(writeLine, { flush });
}

// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
const CONTROL = /[\p{Cc}\u2028\u2029]/gu;

/** `text` with every control character written as `\xNN` (`\uNNNN`), so it stays on one line. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (char) => {
    const code = char.charCodeAt(0);
    return code > 0xff
      ? `\\u${code.toString(16).padStart(4, "0")}`
      : `\\x${code.toString(16).padStart(2, "0")}`;
  });
}

/**
 * Logs each request after it is answered.
 *
 * @example
 * ```ts
 * app.use(accessLog());
 * ```
 */
export function accessLog(
  options: AccessLogOptions = {},
): MiddlewareHandler<{ Variables: RequestIdVariables }> {
  const write = options.write ?? bufferedStderr();
  const quiet = new Set(options.quietPaths ?? []);
  const privatePrefixes = options.privatePrefixes ?? [];
  return async function accessLogMiddleware(c, next) {
    if (quiet.has(c.req.path)) return await next();
    const start = Date.now(); // not performance.now: a runtime call, measurable per request
    await next();
    const ms = Date.now() - start;
    const hidden = privatePrefixes.find((prefix) => c.req.path.startsWith(prefix));
    const shown = hidden === undefined ? routeOf(c) : `${hidden}…`;
    const line = `${c.get("requestId")} ${c.req.method} ${shown} ${c.res.status} ${ms}ms`;
    write(escapeControls(line));
  };
}

/** The pattern of the route that answered (middleware is registered for method `ALL`). */
function routeOf(c: Parameters<MiddlewareHandler>[0]): string {
  const routes = matchedRoutes(c);
  for (let index = routes.length - 1; index >= 0; index--) {
    if (routes[index].method !== "ALL") return routes[index].path;
  }
  return NO_ROUTE;
}
