/**
 * The settings page on the narrowest common phone (360 px wide) with long values in every engine
 * card: nothing may widen the page into horizontal scrolling, in light or dark mode.
 */
import assert from "node:assert/strict";
import { openPage, settingsPageTest } from "../support/settings_browser.ts";

const LONG_PATH = "/".concat("very-long-path-segment-".repeat(12));
const LONG_MODEL = "hf.co/someone-with-a-long-name/".concat("Qwen2.5-72B-Instruct-GGUF-".repeat(6));

for (const colorScheme of ["light", "dark"] as const) {
  settingsPageTest(
    `in Chromium at 360 px, ${colorScheme}: long engine addresses, models, hints and an error fit the width`,
    async (browser, service) => {
      service.store.update((settings) => {
        settings.engines["engine-one"].base_url = `http://127.0.0.1:9${LONG_PATH}`;
        settings.engines["engine-two"].model = LONG_MODEL;
        settings.engines["compatible-api"].base_url = `http://127.0.0.1:9${LONG_PATH}`;
        settings.engines["compatible-api"].api_key = "sk-local";
      });
      const { page, errors, context } = await openPage(browser, service, { colorScheme });
      await page.setViewportSize({ width: 360, height: 740 });
      // A refusal quoting the long address the user typed, next to the field.
      const card = '[data-engine="engine-two"]';
      await page.fill(`${card} input[name=base_url]`, `http://example.com${LONG_PATH}`);
      await page.click(`${card} button.primary`);
      await page.locator(`${card} .message.error`).waitFor();
      const overflowing = await page.evaluate(`[...document.querySelectorAll("body *")]
        .filter((node) => node.getBoundingClientRect().right > innerWidth + 0.5)
        .map((node) => node.tagName + "." + node.className)`);
      assert.deepEqual(overflowing, [], "nothing reaches past the window's right edge");
      const widths = await page.evaluate("[document.documentElement.scrollWidth, innerWidth]");
      assert.deepEqual(widths, [360, 360], "no horizontal scrolling");
      assert.deepEqual(errors, []);
      await context.close();
    },
  );
}
