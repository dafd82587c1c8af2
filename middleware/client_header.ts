/**
 * `X-Svc-Client`: an optional client identifier, stored with history rows.
 */
import type { MiddlewareHandler } from "hono";

const PRINTABLE_ASCII = /^[\x20-\x7E]{1,128}$/;

/** Context variables set by {@link clientHeader}. */
export type ClientHeaderVariables = { client: string | null };

/** Options of {@link clientHeader}. */
export interface ClientHeaderOptions {
  /** Builds the error thrown for a value that is not 1–128 printable ASCII characters. */
  reject: () => Error;
}

/**
 * Validates `X-Svc-Client` (at most 128 printable ASCII characters) and sets `client`.
 *
 * @throws {TypeError} at construction when `reject` is missing.
 * @example
 * ```ts
 * app.use("/v1/translate", clientHeader({ reject: () => serviceError("invalid_request", "…") }));
 * ```
 */
export function clientHeader(
  options: ClientHeaderOptions,
): MiddlewareHandler<{ Variables: ClientHeaderVariables }> {
  if (typeof options.reject !== "function") throw new TypeError("clientHeader needs reject");
  return async function clientHeaderMiddleware(c, next) {
    const value = c.req.header("x-svc-client");
    if (value !== undefined && !PRINTABLE_ASCII.test(value)) throw options.reject();
    c.set("client", value ?? null);
    await next();
  };
}
