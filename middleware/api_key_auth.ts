/**
 * API key authentication of `tolk infer`: `Authorization: Bearer <SVC_API_KEY>` on every
 * request it guards, compared in constant time.
 */
import type { MiddlewareHandler } from "hono";
import { bearerToken, tokensEqual } from "./token_auth.ts";

/** Options of {@link apiKeyAuth}. */
export interface ApiKeyAuthOptions {
  /** The key every request must present (non-empty). */
  key: string;
  /** Builds the error thrown for a missing or wrong key. */
  reject: () => Error;
}

/**
 * Requires `Authorization: Bearer <key>`.
 *
 * @throws {TypeError} at construction when the key is empty or `reject` is missing.
 * @example
 * ```ts
 * app.use("/v1/*", apiKeyAuth({ key, reject: () => inferenceError("invalid_api_key", "…") }));
 * ```
 */
export function apiKeyAuth(options: ApiKeyAuthOptions): MiddlewareHandler {
  if (typeof options.key !== "string" || options.key === "") {
    throw new TypeError("apiKeyAuth needs a non-empty key");
  }
  if (typeof options.reject !== "function") throw new TypeError("apiKeyAuth needs reject");
  const { key, reject } = options;
  return async function apiKeyAuthMiddleware(c, next) {
    const presented = bearerToken(c.req.header("authorization"));
    if (presented === undefined || !tokensEqual(presented, key)) throw reject();
    await next();
  };
}
