/**
 * The settings page with the keyboard only: after an action, the focus stays where the user can
 * go on from, never dropped on the page's body.
 */
import assert from "node:assert/strict";
import { openPage, settingsPageTest } from "../support/settings_browser.ts";

const focused = "document.activeElement.id";

settingsPageTest(
  "in Chromium, keyboard only: Enter on Revoke leaves the focus on Rotate, the way to a new token",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, {
      colorScheme: "light",
    });
    await page.focus("#revoke");
    await page.keyboard.press("Enter");
    await page.locator("#toast", { hasText: "Token revoked" }).waitFor();
    assert.equal(service.store.read().api.token, null);
    // Revoke disables itself (there is no token left): the focus once fell to the page's body,
    // and the next Tab went to the engines, past Rotate.
    assert.equal(await page.evaluate(focused), "rotate");
    await page.keyboard.press("Enter");
    await page.locator("#toast", { hasText: "New token made" }).waitFor();
    assert.equal(await page.evaluate(focused), "rotate");
    assert.deepEqual(errors, []);
    await context.close();
  },
);

settingsPageTest(
  "in Chromium, keyboard only: Copy after a revoke elsewhere leaves the focus on Rotate",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, {
      colorScheme: "light",
    });
    // Revoked by `tolk token revoke` (the file), not on this page: Copy finds out and disables
    // itself with Reveal and Revoke.
    service.store.update((settings) => {
      settings.api.token = null;
    });
    await page.focus("#copy");
    await page.keyboard.press("Enter");
    await page.locator("#toast", { hasText: /no token/i }).waitFor();
    assert.ok(await page.isDisabled("#copy"));
    assert.equal(await page.evaluate(focused), "rotate");
    assert.deepEqual(errors, []);
    await context.close();
  },
);

settingsPageTest(
  "in Chromium, keyboard only: Translate with an empty box asks for a text, puts the focus there and sends nothing",
  async (browser, service) => {
    const { page, urls, errors, context } = await openPage(browser, service, {
      colorScheme: "light",
    });
    await page.fill("#try-text", "  \n ");
    await page.focus("#try-form button[type=submit]");
    await page.keyboard.press("Enter");
    // It once sent the blank text and showed a blank result from "und → fr · passthrough".
    await page.locator("#try-output.error", { hasText: /type/i }).waitFor();
    assert.equal(await page.evaluate(focused), "try-text");
    assert.ok(!urls.some((url) => url.endsWith("/v1/translate")), "nothing sent");
    assert.deepEqual(errors, []);
    await context.close();
  },
);
