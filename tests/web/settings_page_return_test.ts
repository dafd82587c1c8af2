/**
 * The settings page when the user comes back to its tab after the token changed elsewhere
 * (`tolk token rotate`, another tab): a token left revealed must not go on showing one that no
 * longer works.
 */
import assert from "node:assert/strict";
import { generateToken } from "../../settings/settings_store.ts";
import { openPage, settingsPageTest } from "../support/settings_browser.ts";

/** The event a browser sends when the user comes back to the tab (headless has no other window). */
const BACK_TO_TAB = "document.dispatchEvent(new Event('visibilitychange'))";

settingsPageTest(
  "in Chromium: back on the tab after `tolk token rotate`, a revealed token shows the new one",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, { colorScheme: "light" });
    await page.click("#reveal");
    await page.locator("#token", { hasText: service.token }).waitFor();
    // What `tolk token rotate` does: the settings file gets a new token.
    const rotated = generateToken();
    service.store.update((settings) => {
      settings.api.token = rotated;
    });
    await page.evaluate(BACK_TO_TAB);
    // It once went on showing the old token, which every client now gets 401 with.
    await page.locator("#token", { hasText: rotated }).waitFor();
    assert.equal(await page.textContent("#reveal"), "Hide");
    assert.deepEqual(errors, []);
    await context.close();
  },
);

settingsPageTest(
  "in Chromium: back on the tab after `tolk token revoke`, a revealed token is gone",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, { colorScheme: "light" });
    await page.click("#reveal");
    await page.locator("#token", { hasText: service.token }).waitFor();
    service.store.update((settings) => {
      settings.api.token = null;
    });
    await page.evaluate(BACK_TO_TAB);
    await page.locator("#token", { hasText: "no token" }).waitFor();
    assert.equal(await page.textContent("#reveal"), "Reveal");
    assert.ok(await page.isDisabled("#reveal"));
    assert.deepEqual(errors, []);
    await context.close();
  },
);
