/**
 * The settings page when `tolk serve` cannot be reached (stopped, restarting) as the user saves:
 * a message that says so and that nothing was saved, and nothing typed is lost.
 */
import assert from "node:assert/strict";
import { openPage, settingsPageTest } from "../support/settings_browser.ts";

const ENGINE_ONE = '[data-engine="engine-one"]';

settingsPageTest(
  "in Chromium, with the service unreachable: Save says it cannot reach the service and keeps what was typed",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, { colorScheme: "light" });
    // The connection refused, as when `tolk serve` was stopped after the page loaded.
    await page.route("**/settings/api/**", (route) => route.abort("connectionrefused"));
    await page.fill(`${ENGINE_ONE} input[name=model]`, "typed-while-stopped");
    await page.click(`${ENGINE_ONE} button.primary`);
    const message = page.locator(`${ENGINE_ONE} .message.error`);
    await message.waitFor();
    // It once said only "Failed to fetch".
    assert.match((await message.textContent())!, /cannot reach/i);
    assert.match((await message.textContent())!, /nothing was saved/i);
    assert.equal(await page.inputValue(`${ENGINE_ONE} input[name=model]`), "typed-while-stopped");

    await page.click("#api-enabled");
    await page.locator("#toast", { hasText: /cannot reach/i }).waitFor();
    assert.ok(await page.isChecked("#api-enabled"), "the switch shows the API still on");
    assert.equal(service.store.read().engines["engine-one"].model, null, "not saved");

    // Reveal and Copy once failed silently (an unhandled rejection, no message at all).
    await page.evaluate("document.getElementById('toast').textContent = ''");
    await page.click("#reveal");
    await page.locator("#toast", { hasText: /cannot reach/i }).waitFor();
    assert.equal(await page.textContent("#reveal"), "Reveal");
    await page.evaluate("document.getElementById('toast').textContent = ''");
    await page.click("#copy");
    await page.locator("#toast", { hasText: /cannot reach/i }).waitFor();
    assert.deepEqual(errors.filter((error) => !error.includes("ERR_CONNECTION_REFUSED")), []);
    await context.close();
  },
);
