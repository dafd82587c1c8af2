/**
 * The settings page and the browser's Back button: with `Cache-Control: no-store` Chromium keeps
 * the page out of its back/forward cache, so coming back loads it afresh — a token revealed
 * before leaving is not shown again from memory, and a token rotated meanwhile is the one Reveal
 * shows. (Were the page restored from the cache, it would show the page as it was left.)
 */
import assert from "node:assert/strict";
import { generateToken } from "../../settings/settings_store.ts";
import { launchChromium } from "../support/chromium.ts";
import { BROWSER_TEST, openPage } from "../support/settings_browser.ts";
import { WITH_LINK_KEY } from "../support/settings_session.ts";
import { withTranslationService } from "../support/translation_service.ts";

Deno.test({
  ...BROWSER_TEST,
  name: "in Chromium with its back/forward cache on: Back to the settings page loads it afresh",
  fn: async () => {
    const browser = await launchChromium({ backForwardCache: true });
    try {
      await withTranslationService(async (service) => {
        const { page, context, errors } = await openPage(browser, service, {
          colorScheme: "light",
        });
        await page.evaluate(() => Object.assign(globalThis, { leftHere: true }));
        await page.click("#reveal");
        await page.locator("#token", { hasText: service.token }).waitFor();
        await page.goto(`${service.url}/v1/health`);
        const rotated = generateToken();
        service.store.update((settings) => {
          settings.api.token = rotated;
        });
        // "commit": a page restored from the cache fires no load event for playwright to await.
        await page.goBack({ waitUntil: "commit" });
        await page.waitForFunction("document.readyState === 'complete'");
        await page.waitForSelector("body[data-ready]");
        const left = await page.evaluate(() => "leftHere" in globalThis);
        assert.equal(left, false, "the page came back from the back/forward cache");
        assert.ok(!(await page.textContent("#token"))?.includes(service.token));
        await page.click("#reveal");
        await page.locator("#token", { hasText: rotated }).waitFor();
        assert.deepEqual(errors, []);
        await context.close();
      }, { settings: WITH_LINK_KEY });
    } finally {
      await browser.close();
    }
  },
});
