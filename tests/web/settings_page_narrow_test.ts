/**
 * The settings page on the narrowest phones (320 px, as an old iPhone SE or a zoomed window,
 * and 360 px) with long values in every engine card, and the page without a session with its
 * longest command: nothing may widen the page into horizontal scrolling, in light or dark mode.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { openPage, openTab, settingsPageTest } from "../support/settings_browser.ts";

const LONG_PATH = "/".concat("very-long-path-segment-".repeat(12));
const LONG_MODEL = "hf.co/someone-with-a-long-name/".concat("Qwen2.5-72B-Instruct-GGUF-".repeat(6));

/** Asserts nothing reaches past the right edge of a window `width` px wide. */
async function assertFits(page: Page, width: number): Promise<void> {
  const overflowing = await page.evaluate(`[...document.querySelectorAll("body *")]
    .filter((node) => node.getBoundingClientRect().right > innerWidth + 0.5)
    .map((node) => node.tagName + "." + node.className)`);
  assert.deepEqual(overflowing, [], "nothing reaches past the window's right edge");
  const widths = await page.evaluate("[document.documentElement.scrollWidth, innerWidth]");
  assert.deepEqual(widths, [width, width], "no horizontal scrolling");
}

const CASES = [
  { width: 320, colorScheme: "light" },
  { width: 360, colorScheme: "light" },
  { width: 360, colorScheme: "dark" },
] as const;

for (const { width, colorScheme } of CASES) {
  settingsPageTest(
    `in Chromium at ${width} px, ${colorScheme}: long engine addresses, models, hints and an error fit the width`,
    async (browser, service) => {
      service.store.update((settings) => {
        settings.engines["engine-one"].base_url = `http://127.0.0.1:9${LONG_PATH}`;
        settings.engines["engine-two"].model = LONG_MODEL;
        settings.engines["compatible-api"].base_url = `http://127.0.0.1:9${LONG_PATH}`;
        settings.engines["compatible-api"].api_key = "sk-local";
      });
      const { page, errors, context } = await openPage(browser, service, { colorScheme });
      await page.setViewportSize({ width, height: 740 });
      // A refusal quoting the long address the user typed, next to the field.
      const card = '[data-engine="engine-two"]';
      await page.fill(`${card} input[name=base_url]`, `http://example.com${LONG_PATH}`);
      await page.click(`${card} button.primary`);
      await page.locator(`${card} .message.error`).waitFor();
      await assertFits(page, width);
      assert.deepEqual(errors, []);
      await context.close();
    },
  );
}

settingsPageTest(
  "in Chromium at 320 px: the page without a session, with its command for another port and settings file, fits the width",
  async (browser, service) => {
    const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
    const { page, errors } = await openTab(context);
    await page.goto(`${service.url}/settings`);
    await page.locator("code", { hasText: "--config FILE" }).first().waitFor();
    await assertFits(page, 320);
    assert.deepEqual(errors, []);
    await context.close();
  },
);
