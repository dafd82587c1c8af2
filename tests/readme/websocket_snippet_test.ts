/**
 * The README's WebSocket snippet ("From a browser …"), run as written in Chromium on a page of
 * another loopback origin (a web app on this machine), against the real service with only its
 * address changed and `token` defined: both ways of passing the token (the subprotocol, and the
 * query of the commented line) get the reply the snippet logs.
 */
import assert from "node:assert/strict";
import { launchChromium } from "../support/chromium.ts";
import { codeBlockAfter } from "../support/readme_commands.ts";
import { withTranslationService } from "../support/translation_service.ts";

const README_ADDRESS = "ws://127.0.0.1:8765";

Deno.test({
  name: "the README's browser WebSocket snippet, in both its forms, logs a translation",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const snippet = await codeBlockAfter("### WebSocket", "js");
    const [first, alternative] = snippet.split("\n");
    const query = alternative.match(/^\/\/ or: (new WebSocket\(.*\))$/)?.[1];
    assert.ok(first.includes(`${README_ADDRESS}/v1/ws/translate`) && query, snippet);
    const forms = [snippet, snippet.replace(/new WebSocket\(.*\);$/m, `${query};`)];
    assert.notEqual(forms[1], forms[0]);

    // The page a user's web app would be: another origin on loopback.
    const app = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () =>
        new Response("<!doctype html><title>app</title>", {
          headers: { "content-type": "text/html" },
        }),
    );
    const browser = await launchChromium();
    try {
      await withTranslationService(async (service) => {
        for (const form of forms) {
          const page = await browser.newPage();
          await page.goto(`http://127.0.0.1:${app.addr.port}/`);
          const logged = page.waitForEvent("console", (message) => message.type() === "log");
          const code = form.replaceAll(README_ADDRESS, service.url.replace(/^http/, "ws"));
          await page.evaluate(`const token = ${JSON.stringify(service.token)};\n${code}`);
          const reply = await (await logged).args()[0].jsonValue();
          assert.equal(reply.object, "translation", JSON.stringify(reply));
          assert.equal(reply.target, "ja");
          assert.equal(reply.results.length, 1);
          await page.close();
        }
      });
    } finally {
      await browser.close();
      await app.shutdown();
    }
  },
});
