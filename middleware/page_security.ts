/**
 * Defences of a loopback page that shows a secret (the settings page): no caching, no framing,
 * no CORS, and no request from another origin — other local servers (any port of 127.0.0.1 is
 * the same *site*, so SameSite cookies reach them) included.
 */
import type { MiddlewareHandler } from "hono";

/** The page's Content-Security-Policy: its own files only, never inside a frame. */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * Sets `Cache-Control: no-store`, the CSP, `nosniff`, `Referrer-Policy: no-referrer` and
 * `X-Frame-Options: DENY` on every answer (errors included), and removes any CORS header.
 *
 * @example
 * ```ts
 * app.use("/settings/*", pageHeaders());
 * ```
 */
export function pageHeaders(): MiddlewareHandler {
  return async function pageHeadersMiddleware(c, next) {
    await next();
    const headers = c.res.headers;
    headers.set("Cache-Control", "no-store");
    headers.set("Content-Security-Policy", PAGE_CSP);
    headers.set("X-Content-Type-Options", "nosniff");
    headers.set("Referrer-Policy", "no-referrer");
    headers.set("X-Frame-Options", "DENY");
    for (const name of [...headers.keys()]) {
      if (name.startsWith("access-control-")) headers.delete(name);
    }
  };
}

/** Options of {@link sameOrigin}. */
export interface SameOriginOptions {
  /** Builds the error thrown for a request from another origin. */
  reject: () => Error;
}

const SAFE_METHODS = new Set(["GET", "HEAD"]);

/**
 * Refuses a state-changing request unless `Origin` is the page's own origin (`http://` + the
 * `Host` the request was sent to, already checked to be loopback), and a read whose
 * `Sec-Fetch-Site` says another origin sent it.
 *
 * @throws {TypeError} at construction when `reject` is missing.
 * @example
 * ```ts
 * app.use("/settings/api/*", sameOrigin({ reject: () => serviceError("origin_not_allowed", "…") }));
 * ```
 */
export function sameOrigin(options: SameOriginOptions): MiddlewareHandler {
  if (typeof options.reject !== "function") throw new TypeError("sameOrigin needs reject");
  return async function sameOriginMiddleware(c, next) {
    if (SAFE_METHODS.has(c.req.method)) {
      const site = c.req.header("sec-fetch-site");
      if (site !== undefined && site !== "same-origin" && site !== "none") throw options.reject();
    } else if (c.req.header("origin") !== `http://${c.req.header("host")}`) {
      throw options.reject();
    }
    await next();
  };
}
