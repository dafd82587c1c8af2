/**
 * One stderr line per request: request id, method, path, status and time — never a body, a
 * header value or a query string (tokens travel in queries on WebSocket handshakes).
 */
import type { MiddlewareHandler } from "hono";
import type { RequestIdVariables } from "./request_id.ts";

/** Options of {@link accessLog}. */
export interface AccessLogOptions {
  /** Where lines go; default {@link bufferedStderr}. Pass `() => {}` to silence. */
  write?: (line: string) => void;
  /** Paths answered without a line: liveness probes, polled often, would bury the rest. */
  quietPaths?: readonly string[];
  /**
   * Path prefixes logged as the prefix alone: paths under them may carry a token
   * (`/v1/compat/t/<token>/…`), so neither the rest of the path nor a query is written.
   */
  privatePrefixes?: readonly string[];
}

/**
 * A line writer to stderr that batches lines for up to `delayMs`: one synchronous console
 * write per request cost more than a third of the health endpoint's throughput (BENCHMARKS.md).
 */
export function bufferedStderr(delayMs = 50): (line: string) => void {
  const encoder = new TextEncoder();
  let pending: string[] = [];
  function flush() {
    const text = pending.join("\n") + "\n";
    pending = [];
    Deno.stderr.writeSync(encoder.encode(text));
  }
  return function writeLine(line: string) {
    if (pending.push(line) > 1) return;
    Deno.unrefTimer(setTimeout(flush, delayMs));
  };
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
    const path = c.req.path;
    const hidden = privatePrefixes.find((prefix) => path.startsWith(prefix));
    const shown = hidden === undefined ? path : `${hidden}…`;
    write(`${c.get("requestId")} ${c.req.method} ${shown} ${c.res.status} ${ms}ms`);
  };
}
