/**
 * The chat-completions engine's API key on the settings page: a write-only field. The page says
 * whether a key is set, takes a new one, and removes it; it never shows one.
 */
import assert from "node:assert/strict";
import { openPage, settingsPageTest } from "../support/settings_browser.ts";

const CARD = '[data-engine="compatible-api"]';
const KEY = "sk-local-0123456789abcdef";

settingsPageTest(
  "in Chromium: the chat-completions API key is set, replaced and removed on the page, never shown",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, { colorScheme: "light" });
    const stored = () => service.store.read().engines["compatible-api"].api_key;
    const field = page.locator(`${CARD} input[name=api_key]`);
    await page.locator(`${CARD} .key-state`, { hasText: "not set" }).waitFor();
    assert.equal(await field.getAttribute("type"), "password");
    assert.match((await field.getAttribute("aria-label"))!, /^API key of /);

    await field.fill(KEY);
    await field.press("Enter");
    await page.locator(`${CARD} .message.ok`, { hasText: "Saved" }).waitFor();
    assert.equal(stored(), KEY);
    await page.locator(`${CARD} .key-state`, { hasText: /^set/ }).waitFor();
    // The field is emptied: the key is not left in the page, nor sent again by the next Save.
    assert.equal(await page.inputValue(`${CARD} input[name=api_key]`), "");
    assert.ok(!(await page.content()).includes(KEY), "the key is nowhere in the page");

    await page.fill(`${CARD} input[name=model]`, "some-model");
    await page.click(`${CARD} button.primary`);
    await page.locator(`${CARD} .message.ok`, { hasText: "Saved" }).waitFor();
    assert.equal(stored(), KEY, "a Save of another field keeps the key");

    await page.click(`${CARD} button.remove-key`);
    await page.locator(`${CARD} .key-state`, { hasText: "not set" }).waitFor();
    assert.equal(stored(), null);
    assert.ok(await page.isDisabled(`${CARD} button.remove-key`), "nothing left to remove");
    assert.deepEqual(errors, []);
    await context.close();
  },
);
