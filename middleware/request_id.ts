/**
 * Request id middleware: every response carries `x-request-id`.
 *
 * Hand-written rather than Hono's `requestId` because the contract's accepted charset differs:
 * Hono admits `=` and refuses `.`, the contract admits exactly `[A-Za-z0-9._-]{1,128}`.
 */
import type { MiddlewareHandler } from "hono";

/** The header both services read and write. */
export const REQUEST_ID_HEADER = "x-request-id";

const SAFE_CLIENT_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Context variables set by {@link requestId}. */
export type RequestIdVariables = { requestId: string };

/**
 * Keeps a safe client-sent `x-request-id`, otherwise makes a UUID v4, and echoes it.
 *
 * @example
 * ```ts
 * app.use(requestId());
 * ```
 */
export function requestId(): MiddlewareHandler<{ Variables: RequestIdVariables }> {
  return async function requestIdMiddleware(c, next) {
    const sent = c.req.header(REQUEST_ID_HEADER);
    const id = sent !== undefined && SAFE_CLIENT_ID.test(sent) ? sent : crypto.randomUUID();
    c.set("requestId", id);
    await next();
    // Set on the final response, so error responses made by onError carry it too.
    try {
      c.res.headers.set(REQUEST_ID_HEADER, id);
    } catch {
      // A response with immutable headers (none of ours) goes out without the id.
    }
  };
}
