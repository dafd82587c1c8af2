/**
 * `Cache-Control: no-store` on answers that carry the user's stored text (history, glossaries,
 * memory): tolk is for text that must not leave the machine, and a browser's disk cache or a
 * proxy between a client and the loopback service would keep a copy that no `DELETE` reaches.
 * Without the header a GET answer may be stored heuristically (RFC 9111 §4.2.2).
 */
import type { MiddlewareHandler } from "hono";

/**
 * Sets `Cache-Control: no-store` on every answer of the paths it is mounted on, errors included
 * (they are rendered before this runs again, so a refused request is covered as well).
 *
 * @example
 * ```ts
 * app.use("/v1/history", noStore());
 * ```
 */
export function noStore(): MiddlewareHandler {
  return async function noStoreMiddleware(c, next) {
    await next();
    c.res.headers.set("Cache-Control", "no-store");
  };
}
