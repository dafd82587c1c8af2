/**
 * Sessions of the settings page: a one-time code (one use, 5 minutes) becomes an HttpOnly,
 * SameSite=Strict cookie. The cookie is the only credential the page's endpoints take.
 *
 * Codes and sessions live in memory, keyed by their SHA-256 (a lookup then reveals nothing about
 * the secret); a restart ends every session, and `tolk settings` makes a new link.
 */
import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";

/** Name of the session cookie. */
export const SESSION_COOKIE = "tolk_settings_session";

/** Options of {@link SettingsSessions}. */
export interface SettingsSessionsOptions {
  /** How long a code may be redeemed (default 5 minutes). */
  codeTtlMs?: number;
  /** How long a session lasts (default 12 hours). */
  sessionTtlMs?: number;
  /** Clock (tests move it). */
  now?: () => number;
}

const MAX_PENDING = 32;

function randomSecret(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
    .replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function digest(secret: string): string {
  return createHash("sha256").update(secret).digest("base64url");
}

/** One-time codes and the sessions they open. */
export class SettingsSessions {
  readonly codeTtlMs: number;
  readonly sessionTtlMs: number;
  readonly #now: () => number;
  readonly #codes = new Map<string, number>();
  readonly #sessions = new Map<string, number>();

  constructor(options: SettingsSessionsOptions = {}) {
    this.codeTtlMs = options.codeTtlMs ?? 5 * 60_000;
    this.sessionTtlMs = options.sessionTtlMs ?? 12 * 3_600_000;
    this.#now = options.now ?? Date.now;
  }

  /** A new code, valid once until `expiresAt` (epoch ms). */
  issueCode(): { code: string; expiresAt: number } {
    const code = randomSecret();
    const expiresAt = this.#now() + this.codeTtlMs;
    remember(this.#codes, digest(code), expiresAt, this.#now());
    return { code, expiresAt };
  }

  /** Spends `code` and opens a session; undefined when the code is unknown, used or expired. */
  redeem(code: string): string | undefined {
    const key = digest(code);
    const expiresAt = this.#codes.get(key);
    this.#codes.delete(key);
    if (expiresAt === undefined || expiresAt <= this.#now()) return undefined;
    const session = randomSecret();
    remember(this.#sessions, digest(session), this.#now() + this.sessionTtlMs, this.#now());
    return session;
  }

  /** True when `session` (a cookie value) is open. */
  isOpen(session: string | undefined): boolean {
    if (!session) return false;
    const expiresAt = this.#sessions.get(digest(session));
    return expiresAt !== undefined && expiresAt > this.#now();
  }

  /** Ends a session (logout). */
  close(session: string | undefined): void {
    if (session) this.#sessions.delete(digest(session));
  }
}

/** Keeps at most MAX_PENDING live entries: expired ones go first, then the oldest. */
function remember(entries: Map<string, number>, key: string, expiresAt: number, now: number) {
  for (const [existing, at] of entries) if (at <= now) entries.delete(existing);
  while (entries.size >= MAX_PENDING) entries.delete(entries.keys().next().value!);
  entries.set(key, expiresAt);
}

/** The `Set-Cookie` value opening `session` for the page (and nothing under `/v1`). */
export function sessionCookie(session: string, maxAgeMs: number): string {
  return `${SESSION_COOKIE}=${session}; Path=/settings; HttpOnly; SameSite=Strict; ` +
    `Max-Age=${Math.floor(maxAgeMs / 1000)}`;
}

/** Options of {@link requireSettingsSession}. */
export interface RequireSessionOptions {
  sessions: SettingsSessions;
  /** Builds the error thrown without an open session, from the request's Host (hints name it). */
  reject: (host: string | undefined) => Error;
}

/**
 * Lets a request through only with an open session cookie. The API token is not a credential
 * here: a request carrying only the token is refused like any other.
 *
 * @throws {TypeError} at construction when an option is missing.
 * @example
 * ```ts
 * app.use("/settings/api/*", requireSettingsSession({ sessions, reject: () => serviceError(…) }));
 * ```
 */
export function requireSettingsSession(options: RequireSessionOptions): MiddlewareHandler {
  if (!options.sessions || typeof options.reject !== "function") {
    throw new TypeError("requireSettingsSession needs sessions and reject");
  }
  return async function requireSettingsSessionMiddleware(c, next) {
    if (!options.sessions.isOpen(getCookie(c, SESSION_COOKIE))) {
      throw options.reject(c.req.header("host"));
    }
    await next();
  };
}
