/**
 * The settings page's History switch in a browser: it shows the settings file's
 * `history.enabled` and writes it.
 */
import assert from "node:assert/strict";
import { openPage, settingsPageTest } from "../support/settings_browser.ts";

settingsPageTest(
  "in Chromium, the History switch shows history.enabled and turns it off and on",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, { colorScheme: "light" });
    assert.ok(await page.isChecked("#history-enabled"), "on by default");
    await page.click("#history-enabled");
    await page.locator("#toast", { hasText: "History off" }).waitFor();
    assert.equal(service.store.read().history.enabled, false);
    assert.equal(await page.isChecked("#history-enabled"), false);
    await page.click("#history-enabled");
    await page.locator("#toast", { hasText: "History on" }).waitFor();
    assert.equal(service.store.read().history.enabled, true);
    assert.deepEqual(errors, []);
    await context.close();
  },
);
