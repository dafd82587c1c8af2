import assert from "node:assert/strict";
import { SettingsSessions } from "../../../middleware/settings_session.ts";
import { LinkResponseSchema, PageStateSchema } from "../../../schemas/settings_page.ts";
import { ErrorResponseSchema } from "../../../schemas/translation.ts";
import { signLinkRequest } from "../../../settings/settings_link.ts";
import { expectBody, expectError, postJson } from "../../support/http_assertions.ts";
import { rawGet } from "../../support/raw_http.ts";
import {
  openSession,
  pageCall,
  requestCode,
  settingsLink,
  TEST_LINK_KEY,
  WITH_LINK_KEY,
} from "../../support/settings_session.ts";
import { withTranslationService } from "../../support/translation_service.ts";

const withService = (fn: Parameters<typeof withTranslationService>[0]) =>
  withTranslationService(fn, { settings: WITH_LINK_KEY });

Deno.test("POST /settings/link issues a code for a request signed with the settings file's key", async () => {
  await withService(async (service) => {
    const body = await expectBody(await requestCode(service), 200, LinkResponseSchema);
    const fiveMinutes = Math.floor(Date.now() / 1000) + 300;
    assert.ok(Math.abs(body.expires_at - fiveMinutes) <= 2, String(body.expires_at));
  });
});

Deno.test("POST /settings/link refuses another key, a replayed request, a stale one and a browser", async () => {
  await withService(async (service) => {
    const url = `${service.url}/settings/link`;
    await expectError(await requestCode(service, "x".repeat(43)), 401, "unauthorized");
    const signed = signLinkRequest(TEST_LINK_KEY);
    await expectBody(await postJson(url, signed), 200, LinkResponseSchema);
    await expectError(await postJson(url, signed), 401, "unauthorized");
    const stale = signLinkRequest(TEST_LINK_KEY, Date.now() - 61_000);
    await expectError(await postJson(url, stale), 401, "unauthorized");
    const fromPage = await postJson(url, signLinkRequest(TEST_LINK_KEY), {
      origin: service.url,
    });
    await expectError(fromPage, 403, "origin_not_allowed");
  });
});

Deno.test("POST /settings/link refuses every request while the settings file has no link key", async () => {
  await withTranslationService(async (service) => {
    await expectError(await requestCode(service), 401, "unauthorized");
  });
});

Deno.test("the one-time link sets an HttpOnly SameSite=Strict cookie, redirects, and works once", async () => {
  await withService(async (service) => {
    const link = await settingsLink(service);
    const first = await fetch(link, { redirect: "manual" });
    await first.body?.cancel();
    assert.equal(first.status, 303);
    assert.equal(first.headers.get("location"), "/settings");
    const cookie = first.headers.get("set-cookie") ?? "";
    assert.match(cookie, /^tolk_settings_session=[A-Za-z0-9_-]{43}; /);
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Strict/);
    assert.match(cookie, /; Path=\/settings/);

    const again = await fetch(link, { redirect: "manual" });
    assert.equal(again.status, 401);
    assert.equal(again.headers.get("set-cookie"), null);
    assert.match(await again.text(), /tolk settings/);

    const page = await fetch(`${service.url}/settings`, {
      headers: { cookie: cookie.split(";")[0] },
    });
    assert.equal(page.status, 200);
    assert.match(await page.text(), /settings\.js/);
  });
});

Deno.test("a code expires after 5 minutes", () => {
  let now = 1_000_000;
  const sessions = new SettingsSessions({ now: () => now });
  const late = sessions.issueCode();
  const onTime = sessions.issueCode();
  now += 5 * 60_000 - 1;
  assert.ok(sessions.redeem(onTime.code));
  now += 1;
  assert.equal(sessions.redeem(late.code), undefined);
});

Deno.test("/settings without a session says how to get a link and shows nothing secret", async () => {
  await withService(async (service) => {
    const response = await fetch(`${service.url}/settings`);
    assert.equal(response.status, 401);
    const html = await response.text();
    // The command as this service was started (a checkout: `deno task tolk`), runnable as shown
    // (its flags: settings_page_hint_test.ts).
    assert.match(html, /<code>deno task tolk settings --port \d+ --config FILE<\/code>/);
    assert.ok(!html.includes("%tolk%"));
    assert.ok(!html.includes(service.token));
    assert.ok(!html.includes("settings.js"), "the page script is not even referenced");
  });
});

Deno.test("both pages are whole documents: the shared head, then the page's own body", async () => {
  await withService(async (service) => {
    const cookie = await openSession(service);
    const pages = [
      {
        name: "settings",
        headers: { cookie } as Record<string, string>,
        status: 200,
        has: 'id="api-enabled"',
      },
      { name: "no session", headers: {}, status: 401, has: "Open the settings with a link" },
    ];
    for (const page of pages) {
      const response = await fetch(`${service.url}/settings`, { headers: page.headers });
      assert.equal(response.status, page.status, page.name);
      assert.equal(response.headers.get("content-type"), "text/html; charset=utf-8");
      const html = await response.text();
      assert.ok(html.startsWith('<!doctype html>\n<html lang="en">\n  <head>\n'), page.name);
      assert.match(html, /<title>tolk — settings<\/title>[\s\S]*settings\.css[\s\S]*<\/head>/);
      assert.ok(html.endsWith("  </body>\n</html>\n"), page.name);
      const body = html.slice(html.indexOf("<body>"));
      assert.ok(body.includes(page.has), `${page.name} holds its own body`);
      assert.ok(!html.includes("<!--"), `${page.name}: no slot left over`);
    }
  });
});

Deno.test("the page's HTML as served never holds the token", async () => {
  await withService(async (service) => {
    const cookie = await openSession(service);
    for (
      const path of [
        "/settings",
        "/settings/settings.js",
        "/settings/engines.js",
        "/settings/settings.css",
      ]
    ) {
      const response = await fetch(`${service.url}${path}`, { headers: { cookie } });
      assert.equal(response.status, 200, path);
      assert.ok(!(await response.text()).includes(service.token), path);
    }
  });
});

Deno.test("the page's endpoints take the session cookie only, never the API token", async () => {
  await withService(async (service) => {
    await expectError(await pageCall(service, "state"), 401, "unauthorized");
    const withToken = await pageCall(service, "state", {
      headers: { "x-svc-token": service.token, authorization: `Bearer ${service.token}` },
    });
    await expectError(withToken, 401, "unauthorized");
    await expectError(
      await pageCall(service, "token/reveal", {
        body: {},
        headers: { "x-svc-token": service.token },
      }),
      401,
      "unauthorized",
    );
    const cookie = await openSession(service);
    await expectBody(await pageCall(service, "state", { cookie }), 200, PageStateSchema);
  });
});

Deno.test("the session cookie is refused on /v1/detect and /v1/translate", async () => {
  await withService(async (service) => {
    const cookie = await openSession(service);
    const detect = await postJson(`${service.url}/v1/detect`, { texts: ["Hallo"] }, { cookie });
    await expectError(detect, 401, "unauthorized");
    const translate = await postJson(`${service.url}/v1/translate`, {
      target: "fr",
      texts: ["Hello"],
    }, { cookie, origin: service.url });
    await expectError(translate, 401, "unauthorized");
  });
});

const FOREIGN_ORIGINS = [
  { name: "no Origin", headers: { origin: "" } },
  { name: "another site", headers: { origin: "http://evil.example" } },
  { name: "another port of the same host", headers: { origin: "http://127.0.0.1:1" } },
  { name: "null", headers: { origin: "null" } },
];

Deno.test("a state-changing request without the page's own Origin is refused", async () => {
  await withService(async (service) => {
    const cookie = await openSession(service);
    for (const row of FOREIGN_ORIGINS) {
      const headers = row.headers.origin ? row.headers : {};
      const response = await fetch(`${service.url}/settings/api/token/rotate`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json", ...headers },
        body: "{}",
      });
      await expectError(response, 403, "origin_not_allowed");
    }
    assert.equal(service.store.read().api.token, service.token, "nothing changed");
    const read = await pageCall(service, "state", {
      cookie,
      headers: { "sec-fetch-site": "same-site" },
    });
    await expectError(read, 403, "origin_not_allowed");
  });
});

Deno.test("page answers carry no-store, frame-ancestors 'none' and no CORS headers", async () => {
  await withService(async (service) => {
    const cookie = await openSession(service);
    const answers = [
      await fetch(`${service.url}/settings`),
      await fetch(`${service.url}/settings`, { headers: { cookie } }),
      await fetch(`${service.url}/settings/settings.js`),
      await pageCall(service, "state", { cookie, headers: { origin: "http://evil.example" } }),
      await pageCall(service, "token/reveal", { cookie, body: {} }),
      await pageCall(service, "state"),
      // A path the page does not serve: its 404 once came without any of the page's headers.
      await fetch(`${service.url}/settings/no-such-file.js`),
      await fetch(`${service.url}/settings/api/state`, {
        method: "OPTIONS",
        headers: { origin: "http://evil.example", "access-control-request-method": "POST" },
      }),
    ];
    for (const response of answers) {
      await response.body?.cancel();
      const where = `${response.url} ${response.status}`;
      assert.equal(response.headers.get("cache-control"), "no-store", where);
      assert.match(response.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
      const cors = [...response.headers.keys()].filter((name) => name.startsWith("access-control"));
      assert.deepEqual(cors, [], where);
    }
  });
});

Deno.test("the settings page refuses a foreign Host header (DNS rebinding)", async () => {
  await withService(async (service) => {
    for (const path of ["/settings", "/settings/api/state", "/settings/settings.js"]) {
      const response = await rawGet(service.url, path, { Host: "evil.example:8765" });
      assert.equal(response.status, 403, path);
      const body = ErrorResponseSchema.parse(JSON.parse(response.body));
      assert.equal(body.error.code, "host_not_allowed");
    }
  });
});
