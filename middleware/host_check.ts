/**
 * DNS-rebinding defence for loopback binds: only loopback names may appear in `Host`.
 */
import type { MiddlewareHandler } from "hono";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Options of {@link hostCheck}. */
export interface HostCheckOptions {
  /** Builds the error thrown for a refused Host (rendered by the service's `onError`). */
  reject: (host: string | undefined) => Error;
  /** Turns the check off, for a service deliberately bound to a non-loopback address. */
  enabled?: boolean;
}

/** True when `host` (a `Host` header value, port optional) names the loopback interface. */
export function isLoopbackHostHeader(host: string): boolean {
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0];
  const port = host.slice(name.length);
  return LOOPBACK_HOSTS.has(name.toLowerCase()) && (port === "" || /^:\d{1,5}$/.test(port));
}

/**
 * Refuses requests whose `Host` header is not `localhost`, `127.0.0.1` or `[::1]` (any port).
 *
 * @throws {TypeError} at construction when `reject` is missing.
 * @example
 * ```ts
 * app.use(hostCheck({ reject: () => errors.hostNotAllowed() }));
 * ```
 */
export function hostCheck(options: HostCheckOptions): MiddlewareHandler {
  if (typeof options.reject !== "function") {
    throw new TypeError("hostCheck needs a reject function");
  }
  const enabled = options.enabled ?? true;
  // Clients send the same few Host values: remembering accepted ones skips the parsing.
  const accepted = new Set<string>();
  return async function hostCheckMiddleware(c, next) {
    const host = c.req.header("host");
    if (enabled && (host === undefined || !accepted.has(host))) {
      if (host === undefined || !isLoopbackHostHeader(host)) throw options.reject(host);
      if (accepted.size < 64) accepted.add(host);
    }
    await next();
  };
}
