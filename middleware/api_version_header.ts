/**
 * `Svc-API-Version` on every successful JSON response of the routes it is installed on.
 */
import type { MiddlewareHandler } from "hono";

/** The contract's version date (DECISIONS.md). */
export const SVC_API_VERSION = "2026-11-20";

/**
 * Adds `Svc-API-Version: 2026-11-20` to 2xx JSON responses.
 *
 * @example
 * ```ts
 * app.use("/v1/health", apiVersionHeader());
 * ```
 */
export function apiVersionHeader(version: string = SVC_API_VERSION): MiddlewareHandler {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(version)) throw new TypeError("version must be YYYY-MM-DD");
  return async function apiVersionHeaderMiddleware(c, next) {
    await next();
    const json = c.res.headers.get("content-type")?.startsWith("application/json") ?? false;
    if (c.res.ok && json) c.res.headers.set("Svc-API-Version", version);
  };
}
