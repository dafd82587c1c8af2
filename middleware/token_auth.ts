/**
 * Token authentication of `tolk serve`: one {@link authorize} for HTTP and the WebSocket
 * handshake alike, every carrier of the contract parsed here once, constant-time comparison, and
 * the settings read once per request so rotate/revoke need no restart.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";

/** Where a presented token came from. */
export type TokenCarrier = "header" | "bearer" | "query" | "subprotocol";

/** The `api` section of the settings, as read for one request. */
export interface ApiAccess {
  enabled: boolean;
  /** The token in force, or null once revoked. */
  token: string | null;
}

/** Why a request was refused. */
export type RefusalReason = "disabled" | "missing" | "invalid";

/** The answer of {@link authorize}. */
export type AuthVerdict =
  | {
    allowed: true;
    /** The token presented (kept by a WebSocket to notice a later revocation). */
    token: string;
    carrier: TokenCarrier;
    /** `bearer` when the handshake offered it first: the 101 must echo it. */
    subprotocol: "bearer" | null;
  }
  | { allowed: false; reason: RefusalReason };

/** Options of {@link authorize}. */
export interface AuthorizeOptions {
  /** A WebSocket handshake may also carry the token in the query or the subprotocol. */
  websocket: boolean;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * What a key must be for a client to present it as `Authorization: Bearer <key>`: printable
 * ASCII without white space. A header value is trimmed and {@link bearerToken} ends at white
 * space, so a key with any (a secret file's trailing newline) would match no request.
 */
export const PRESENTABLE_KEY = /^[\x21-\x7E]+$/;

/** The token of an `Authorization: Bearer <token>` header, if it is one. */
export function bearerToken(authorization: string | null | undefined): string | undefined {
  return authorization?.match(BEARER)?.[1];
}

/**
 * The subprotocols a handshake offers. RFC 6455 separates them with commas and optional white
 * space: the spec's `bearer,<token>` and browsers' `bearer, <token>` are the same offer.
 */
export function offeredSubprotocols(header: string | null | undefined): string[] {
  return (header ?? "").split(",").map((protocol) => protocol.trim()).filter(Boolean);
}

/**
 * Decides whether a request may pass. HTTP requests may use `X-Svc-Token` or
 * `Authorization: Bearer`; a WebSocket handshake may also use `?token=`, `?access_token=` or
 * `Sec-WebSocket-Protocol: bearer,<token>`.
 *
 * @example
 * ```ts
 * const verdict = authorize(request, settings.current().api, { websocket: false });
 * if (!verdict.allowed) throw refusal(verdict.reason);
 * ```
 */
export function authorize(
  request: Request,
  access: ApiAccess,
  options: AuthorizeOptions,
): AuthVerdict {
  if (!access.enabled) return { allowed: false, reason: "disabled" };
  const offered = options.websocket
    ? offeredSubprotocols(request.headers.get("sec-websocket-protocol"))
    : [];
  const subprotocol = offered[0] === "bearer" ? "bearer" : null;
  const presented = presentedToken(request, offered, options.websocket);
  if (!presented) return { allowed: false, reason: "missing" };
  if (!isCurrentToken(presented.token, access)) return { allowed: false, reason: "invalid" };
  return { allowed: true, ...presented, subprotocol };
}

/** True while `token` is the token in force (a WebSocket checks this on every frame). */
export function isCurrentToken(token: string, access: ApiAccess): boolean {
  return access.enabled && access.token !== null && tokensEqual(token, access.token);
}

/** Compares two secrets in constant time (digests first, so lengths leak nothing). */
export function tokensEqual(presented: string, expected: string): boolean {
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

function presentedToken(
  request: Request,
  offered: readonly string[],
  websocket: boolean,
): { token: string; carrier: TokenCarrier } | undefined {
  const header = request.headers.get("x-svc-token");
  if (header) return { token: header, carrier: "header" };
  const bearer = bearerToken(request.headers.get("authorization"));
  if (bearer) return { token: bearer, carrier: "bearer" };
  if (!websocket) return undefined;
  const query = new URL(request.url).searchParams;
  // `||`, not `??`: an empty `token=` (a URL template filling both) is no token and must not
  // hide the `access_token=` beside it, as an empty header does not hide the next carrier.
  const fromQuery = query.get("token") || query.get("access_token");
  if (fromQuery) return { token: fromQuery, carrier: "query" };
  if (offered[0] === "bearer" && offered[1]) return { token: offered[1], carrier: "subprotocol" };
  return undefined;
}

/** Options of {@link tokenAuth}. */
export interface TokenAuthOptions {
  /** The `api` settings now; called once per request. */
  access: () => ApiAccess;
  /** Builds the error thrown for a refused request. */
  reject: (reason: RefusalReason) => Error;
}

/**
 * Requires the API token on HTTP requests (`X-Svc-Token` or `Authorization: Bearer`).
 *
 * @throws {TypeError} at construction when an option is missing.
 * @example
 * ```ts
 * app.use("/v1/translate", tokenAuth({ access, reject: (reason) => serviceError("unauthorized", "…") }));
 * ```
 */
export function tokenAuth(options: TokenAuthOptions): MiddlewareHandler {
  if (typeof options.access !== "function" || typeof options.reject !== "function") {
    throw new TypeError("tokenAuth needs access and reject functions");
  }
  return async function tokenAuthMiddleware(c, next) {
    const verdict = authorize(c.req.raw, options.access(), { websocket: false });
    if (!verdict.allowed) throw options.reject(verdict.reason);
    await next();
  };
}
