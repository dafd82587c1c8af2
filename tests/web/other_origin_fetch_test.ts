/**
 * `fetch` from a user's web app on another loopback origin, in Chromium, with the token in a
 * header (so every call is preflighted): the compat routes answer any origin (README: browser
 * extensions call them), and the page can read their refusals, their status, body and the
 * headers a client acts on; `/v1/translate` has no CORS (DECISIONS: only the compat routes), so
 * the browser stops the call at its preflight and nothing is translated.
 */
import assert from "node:assert/strict";
import { BUSY_RETRY_AFTER_SECONDS, LONG_JOB, startOneSlotService } from "../support/busy_engine.ts";
import { postJson } from "../support/http_assertions.ts";
import { call, CALL_SCRIPT, type Seen, withOtherOriginPage } from "../support/other_origin_page.ts";
import { FRENCH } from "../support/sample_texts.ts";
import { BROWSER_TEST, browserServiceTest, withBrowser } from "../support/settings_browser.ts";

function json(headers: Record<string, string>, body: unknown): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  };
}

browserServiceTest(
  "fetch from another origin: /v1/translate is stopped at the browser's preflight and nothing is translated",
  async (browser, service) => {
    await withOtherOriginPage(browser, `<script>${CALL_SCRIPT}</script>`, async ({ page }) => {
      const seen = await call(
        page,
        `${service.url}/v1/translate`,
        json({ "x-svc-token": service.token }, { target: "fr", texts: ["Good morning"] }),
      );
      assert.match(seen.blocked ?? "", /TypeError/, JSON.stringify(seen));
    });
    assert.ok(
      !service.logs.some((line) => line.includes("POST /v1/translate")),
      service.logs.join("\n"),
    );
    assert.deepEqual(service.history.list({ limit: 10 }).entries, []);
  },
);

browserServiceTest(
  "fetch from another origin: compat answers and refusals are readable by the page, status, body and x-request-id",
  async (browser, service) => {
    await withOtherOriginPage(browser, `<script>${CALL_SCRIPT}</script>`, async ({ page }) => {
      const bearer = { authorization: `Bearer ${service.token}` };
      const deeplx = `${service.url}/v1/compat/deeplx/translate`;
      const libre = `${service.url}/v1/compat/libre`;
      const text = { text: FRENCH, source_lang: "FR", target_lang: "EN" };
      const cases: [string, string, RequestInit, number, RegExp][] = [
        ["DeepLX with Bearer", deeplx, json(bearer, text), 200, /"code":200/],
        [
          "DeepLX wrong token",
          deeplx,
          json({ authorization: "Bearer wrong" }, text),
          401,
          /"code":401/,
        ],
        [
          "DeepL wrong key",
          `${service.url}/v1/compat/deepl/v2/translate`,
          json({ authorization: "DeepL-Auth-Key wrong" }, { text: [FRENCH], target_lang: "EN" }),
          403,
          /"message"/,
        ],
        [
          "LibreTranslate wrong key",
          `${libre}/translate`,
          json({}, { q: FRENCH, source: "fr", target: "en", api_key: "wrong" }),
          403,
          /"error"/,
        ],
        ["LibreTranslate unknown path", `${libre}/nothing`, json({}, {}), 404, /"error"/],
        [
          "LibreTranslate body over 1 MiB",
          `${libre}/translate`,
          json({}, { q: "x".repeat(1 << 20), target: "en", api_key: service.token }),
          400,
          /"error"/,
        ],
        [
          "LibreTranslate base URL pasted with its final slash (308, followed)",
          `${libre}//translate`,
          json({}, { q: FRENCH, source: "fr", target: "en", api_key: service.token }),
          200,
          /"translatedText"/,
        ],
      ];
      for (const [name, url, init, status, body] of cases) {
        const seen = await call(page, url, init);
        assert.equal(seen.status, status, `${name}: ${JSON.stringify(seen)}`);
        assert.match(seen.body ?? "", body, name);
        assert.match(seen.requestId ?? "", /^[A-Za-z0-9._-]+$/, `${name}: x-request-id exposed`);
      }
    });
  },
);

Deno.test({
  ...BROWSER_TEST,
  name:
    "fetch from another origin: a compat 429 for a full engine queue shows the page its Retry-After",
  fn: () =>
    withBrowser(async (browser) => {
      const service = await startOneSlotService();
      try {
        await withOtherOriginPage(browser, `<script>${CALL_SCRIPT}</script>`, async ({ page }) => {
          const url = `${service.url}/v1/compat/deeplx/translate?token=${service.token}`;
          const body = (text: string) => ({ text, source_lang: "FR", target_lang: "EN" });
          const long = postJson(url, body(LONG_JOB.join("\n")));
          let refused: Seen | undefined;
          for (let i = 0; i < 200 && !refused; i++) {
            const seen = await call(page, url, json({}, body(FRENCH)));
            if (seen.status !== 200) refused = seen;
          }
          await (await long).body?.cancel();
          assert.ok(refused, "one request overlapped the long one and was refused");
          assert.equal(refused.status, 429, JSON.stringify(refused));
          assert.equal(refused.retryAfter, String(BUSY_RETRY_AFTER_SECONDS));
        });
      } finally {
        await service.stop();
      }
    }),
});

browserServiceTest(
  "fetch from another origin: a compat 503 (no engine ready) is readable by the page",
  async (browser, service) => {
    await withOtherOriginPage(browser, `<script>${CALL_SCRIPT}</script>`, async ({ page }) => {
      const seen = await call(
        page,
        `${service.url}/v1/compat/deeplx/translate`,
        json(
          { authorization: `Bearer ${service.token}` },
          { text: FRENCH, source_lang: "FR", target_lang: "EN" },
        ),
      );
      assert.equal(seen.status, 503, JSON.stringify(seen));
      assert.match(JSON.parse(seen.body!).message, /no translation engine is ready/);
    });
  },
  // The built-in engine's model is not installed: nothing can translate.
  { settings: { engines: { "local-llm": { model: "tolk-test/not-installed" } } } },
);
