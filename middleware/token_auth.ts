/**
 * Token authentication of `tolk serve`: every carrier of the contract, constant-time comparison,
 * and the current token read on each request so rotate/revoke need no restart.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";

/** Where a presented token came from; the WebSocket handshake echoes `bearer` for `subprotocol`. */
export type TokenCarrier = "header" | "bearer" | "query" | "subprotocol";

/** A token presented by a client. */
export interface PresentedToken {
  token: string;
  carrier: TokenCarrier;
}

/**
 * Finds the token a request presents. HTTP requests may use `X-Svc-Token` or
 * `Authorization: Bearer`; a WebSocket handshake may also use `?token=`, `?access_token=` or
 * `Sec-WebSocket-Protocol: bearer,<token>`.
 */
export function presentedToken(request: Request, websocket: boolean): PresentedToken | undefined {
  const header = request.headers.get("x-svc-token");
  if (header) return { token: header, carrier: "header" };
  const authorization = request.headers.get("authorization");
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  if (bearer) return { token: bearer[1], carrier: "bearer" };
  if (!websocket) return undefined;
  const query = new URL(request.url).searchParams;
  const fromQuery = query.get("token") ?? query.get("access_token");
  if (fromQuery) return { token: fromQuery, carrier: "query" };
  const protocols = request.headers.get("sec-websocket-protocol")?.split(",").map((p) => p.trim());
  if (protocols?.[0] === "bearer" && protocols[1]) {
    return { token: protocols[1], carrier: "subprotocol" };
  }
  return undefined;
}

/** Compares two secrets in constant time (digests first, so lengths leak nothing). */
export function tokensEqual(presented: string, expected: string): boolean {
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Options of {@link tokenAuth}. */
export interface TokenAuthOptions {
  /** The token in force now, or null while the API is disabled or the token revoked. */
  currentToken: () => string | null;
  /** Builds the error thrown for a missing or wrong token. */
  reject: () => Error;
}

/** True when `presented` matches the token in force now. */
export function isAuthorized(presented: PresentedToken | undefined, current: string | null) {
  return presented !== undefined && current !== null && tokensEqual(presented.token, current);
}

/**
 * Requires the API token on HTTP requests (`X-Svc-Token` or `Authorization: Bearer`).
 *
 * @throws {TypeError} at construction when an option is missing.
 * @example
 * ```ts
 * app.use("/v1/translate", tokenAuth({ currentToken, reject: () => serviceError("unauthorized", "…") }));
 * ```
 */
export function tokenAuth(options: TokenAuthOptions): MiddlewareHandler {
  if (typeof options.currentToken !== "function" || typeof options.reject !== "function") {
    throw new TypeError("tokenAuth needs currentToken and reject functions");
  }
  return async function tokenAuthMiddleware(c, next) {
    if (!isAuthorized(presentedToken(c.req.raw, false), options.currentToken())) {
      throw options.reject();
    }
    await next();
  };
}
