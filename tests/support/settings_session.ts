/**
 * Opens a settings-page session on a test service the way `tolk settings` and a browser do:
 * a signed link request, then the one-time link, then the cookie it sets.
 */
import assert from "node:assert/strict";
import { signLinkRequest } from "../../settings/settings_link.ts";
import type { TestService } from "./translation_service.ts";

/** The link key test services are started with (`settings_page.link_key`). */
export const TEST_LINK_KEY = "link-key-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";

/** Settings that give a test service the known link key. */
export const WITH_LINK_KEY = { settings_page: { link_key: TEST_LINK_KEY } };

/** Asks the service for a one-time code, as `tolk settings` does. */
export async function requestCode(service: TestService, key = TEST_LINK_KEY): Promise<Response> {
  return await fetch(`${service.url}/settings/link`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(signLinkRequest(key)),
  });
}

/** A one-time link to the settings page. */
export async function settingsLink(service: TestService): Promise<string> {
  const response = await requestCode(service);
  assert.equal(response.status, 200);
  const { code } = await response.json();
  return `${service.url}/settings?code=${code}`;
}

/** Opens the link and returns the `name=value` of the session cookie it sets. */
export async function openSession(service: TestService): Promise<string> {
  const response = await fetch(await settingsLink(service), { redirect: "manual" });
  await response.body?.cancel();
  assert.equal(response.status, 303);
  const cookie = response.headers.get("set-cookie") ?? "";
  return cookie.split(";")[0];
}

/** Calls a page endpoint with the cookie and the page's own Origin (a POST when `body` is given). */
export async function pageCall(
  service: TestService,
  path: string,
  options: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const post = options.body !== undefined;
  return await fetch(`${service.url}/settings/api/${path}`, {
    method: post ? "POST" : "GET",
    headers: {
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(post ? { "content-type": "application/json", origin: service.url } : {}),
      ...options.headers,
    },
    body: post ? JSON.stringify(options.body) : undefined,
  });
}
