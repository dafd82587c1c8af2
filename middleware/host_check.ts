/**
 * DNS-rebinding defence for loopback binds: only loopback names may appear in `Host`.
 */
import type { MiddlewareHandler } from "hono";
import { isLoopbackHostHeader, LOOPBACK_HOST_RULE } from "../net/loopback.ts";

/** Options of {@link hostCheck}. */
export interface HostCheckOptions {
  /**
   * Builds the error thrown for a refused Host (rendered by the service's `onError`) from the
   * message saying what is accepted, the same for every service.
   */
  reject: (message: string, host: string | undefined) => Error;
  /** Turns the check off, for a service deliberately bound to a non-loopback address. */
  enabled?: boolean;
}

/**
 * Refuses requests whose `Host` header does not name loopback (`net/loopback.ts`: localhost,
 * 127.0.0.0/8 or `[::1]`, any port), which includes every address a loopback bind can have.
 *
 * @throws {TypeError} at construction when `reject` is missing.
 * @example
 * ```ts
 * app.use(hostCheck({ reject: (message) => serviceError("host_not_allowed", message) }));
 * ```
 */
export function hostCheck(options: HostCheckOptions): MiddlewareHandler {
  if (typeof options.reject !== "function") {
    throw new TypeError("hostCheck needs a reject function");
  }
  const enabled = options.enabled ?? true;
  const message = `the Host header must name loopback (${LOOPBACK_HOST_RULE})`;
  // Clients send the same few Host values: remembering accepted ones skips the parsing.
  const accepted = new Set<string>();
  return async function hostCheckMiddleware(c, next) {
    const host = c.req.header("host");
    if (enabled && (host === undefined || !accepted.has(host))) {
      if (host === undefined || !isLoopbackHostHeader(host)) throw options.reject(message, host);
      if (accepted.size < 64) accepted.add(host);
    }
    await next();
  };
}
