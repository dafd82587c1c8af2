/**
 * A real Manifest V3 extension's page (origin `chrome-extension://<id>`, no host permission) in
 * Chromium calls tolk as the README says extensions may: the compat routes answer it and it reads
 * their refusals; `/v1/translate` has no CORS, so the browser stops that call; and the README's
 * WebSocket snippet, run as written (address changed, `token` defined), gets its translation.
 */
import assert from "node:assert/strict";
import { withExtensionPage } from "../support/extension_page.ts";
import { call } from "../support/other_origin_page.ts";
import { codeBlockAfter } from "../support/readme_commands.ts";
import { FRENCH } from "../support/sample_texts.ts";
import { BROWSER_TEST } from "../support/settings_browser.ts";
import { withTranslationService } from "../support/translation_service.ts";

function json(headers: Record<string, string>, body: unknown): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  };
}

Deno.test({
  ...BROWSER_TEST,
  name:
    "a chrome-extension page: compat answers and refusals are readable, /v1/translate is refused, the README WebSocket snippet translates",
  fn: () =>
    withTranslationService((service) =>
      withExtensionPage(async ({ page, origin }) => {
        assert.match(origin, /^chrome-extension:\/\/[a-p]{32}$/);
        const deeplx = `${service.url}/v1/compat/deeplx/translate`;
        const text = { text: FRENCH, source_lang: "FR", target_lang: "EN" };
        const ok = await call(
          page,
          deeplx,
          json({ authorization: `Bearer ${service.token}` }, text),
        );
        assert.equal(ok.status, 200, JSON.stringify(ok));
        assert.equal(JSON.parse(ok.body!).code, 200);

        const refused = await call(
          page,
          `${service.url}/v1/compat/deepl/v2/translate`,
          json({ authorization: "DeepL-Auth-Key wrong" }, { text: [FRENCH], target_lang: "EN" }),
        );
        assert.equal(refused.status, 403, JSON.stringify(refused));
        assert.equal(typeof JSON.parse(refused.body!).message, "string");

        const own = await call(
          page,
          `${service.url}/v1/translate`,
          json({ "x-svc-token": service.token }, { target: "fr", texts: ["Good morning"] }),
        );
        assert.match(own.blocked ?? "", /TypeError/, JSON.stringify(own));

        const snippet = await codeBlockAfter("### WebSocket", "js");
        const logged = page.waitForEvent("console", (message) => message.type() === "log");
        await page.evaluate(
          `const token = ${JSON.stringify(service.token)};\n` +
            snippet.replaceAll("ws://127.0.0.1:8765", service.wsUrl),
        );
        const reply = await (await logged).args()[0].jsonValue();
        assert.equal(reply.object, "translation", JSON.stringify(reply));
        assert.equal(reply.target, "ja");
      })
    ),
});
