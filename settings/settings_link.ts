/**
 * How `tolk settings` asks the running service for a one-time link without sending a secret.
 *
 * Both sides read the settings file (mode 0600): it holds `settings_page.link_key`. The command
 * sends a fresh nonce, the time, and an HMAC of both under that key; the service checks the
 * HMAC in constant time, the time (±60 s) and that the nonce is new. The key itself never
 * crosses the socket, so a process squatting on the port learns nothing it can reuse, and a
 * captured request cannot be replayed. Works while the API is disabled (the page is where it is
 * enabled), which the API token could not.
 */
import { Buffer } from "node:buffer";
import { createHmac, timingSafeEqual } from "node:crypto";

/** How far the command's clock may be from the service's. */
export const LINK_REQUEST_WINDOW_MS = 60_000;

/** The body of `POST /settings/link`. */
export interface LinkRequest {
  /** Epoch milliseconds when the command made the request. */
  issued_at: number;
  /** 16+ random bytes, base64url; each is accepted once. */
  nonce: string;
  /** HMAC-SHA256 of the two under the link key, base64url. */
  proof: string;
}

function proofOf(key: string, issuedAt: number, nonce: string): string {
  return createHmac("sha256", key).update(`tolk-settings-link\n${issuedAt}\n${nonce}`)
    .digest("base64url");
}

/** Makes a link request signed with `key` (the settings file's `settings_page.link_key`). */
export function signLinkRequest(key: string, now = Date.now()): LinkRequest {
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(18))))
    .replaceAll("+", "-").replaceAll("/", "_");
  return { issued_at: now, nonce, proof: proofOf(key, now, nonce) };
}

/** Checks link requests against the key and remembers nonces for as long as they could be valid. */
export class LinkRequestVerifier {
  readonly #seen = new Map<string, number>();

  /** True when `request` is signed with `key`, fresh, and its nonce was never seen. */
  verify(request: LinkRequest, key: string | null, now = Date.now()): boolean {
    for (const [nonce, at] of this.#seen) {
      if (now - at > 2 * LINK_REQUEST_WINDOW_MS) this.#seen.delete(nonce);
    }
    if (key === null || Math.abs(now - request.issued_at) > LINK_REQUEST_WINDOW_MS) return false;
    if (this.#seen.has(request.nonce)) return false;
    const expected = Buffer.from(proofOf(key, request.issued_at, request.nonce));
    const presented = Buffer.from(request.proof);
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return false;
    this.#seen.set(request.nonce, now);
    return true;
  }
}
