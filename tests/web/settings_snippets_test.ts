/**
 * The settings page's "Use it from code" snippets, copied as shown: the curl snippet run by bash
 * from the checkout (its `token show` reads the service's settings file, which the snippet names
 * when the service was started with --config: a reader's shell has no TOLK_CONFIG), and the
 * browser WebSocket snippet run in the page with its `TOLK_TOKEN` defined. Both get a
 * translation.
 */
import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../../schemas/translation.ts";
import { runAsReader } from "../support/readme_commands.ts";
import { openPage, settingsPageTest } from "../support/settings_browser.ts";

settingsPageTest(
  "the settings page's curl and WebSocket snippets translate as copied",
  async (browser, service) => {
    const { page } = await openPage(browser, service, { colorScheme: "light" });
    const snippet = (title: string) =>
      page.locator(".snippet", { has: page.locator("h3", { hasText: title }) }).locator("code")
        .textContent();

    const curl = (await snippet("curl"))!;
    const home = await Deno.makeTempDir({ prefix: "tolk-snippet-home-" });
    try {
      // A shell without TOLK_CONFIG: the service was started with --config, as a reader does.
      const run = await runAsReader(curl, home, {});
      assert.equal(run.code, 0, run.stderr);
      const parsed = TranslateResponseSchema.safeParse(JSON.parse(run.stdout));
      assert.ok(parsed.success, run.stdout);
      assert.equal(parsed.data.target, "fr");
    } finally {
      await Deno.remove(home, { recursive: true });
    }

    const socket = (await snippet("Browser WebSocket"))!;
    const logged = page.waitForEvent("console", (message) => message.type() === "log");
    await page.evaluate(`const TOLK_TOKEN = ${JSON.stringify(service.token)};\n${socket}`);
    const reply = await (await logged).args()[0].jsonValue();
    assert.equal(reply.object, "translation", JSON.stringify(reply));
    assert.equal(reply.target, "fr");
    await page.close();
  },
);
