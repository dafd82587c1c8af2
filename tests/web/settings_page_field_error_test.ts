/**
 * A refused engine save on the settings page points at the field at fault: the field is marked
 * invalid and described by the message, and the focus goes there — a keyboard user who pressed
 * Save corrects the value without hunting for it — and a later good save clears the mark.
 */
import assert from "node:assert/strict";
import { openPage, settingsPageTest } from "../support/settings_browser.ts";

const CARD = '[data-engine="engine-one"]';

const CASES = [
  { field: "model", value: "m".repeat(300), says: /^The model must be at most 256 characters/ },
  { field: "base_url", value: "http://example.com", says: /^The address must be a loopback/ },
];

for (const row of CASES) {
  settingsPageTest(
    `in Chromium, keyboard only: a refused ${row.field} is marked, described by the message and focused`,
    async (browser, service) => {
      const { page, errors, context } = await openPage(browser, service, {
        colorScheme: "light",
      });
      const input = `${CARD} input[name=${row.field}]`;
      await page.fill(input, row.value);
      await page.focus(`${CARD} button.primary`);
      await page.keyboard.press("Enter");
      const message = page.locator(`${CARD} .message.error`);
      await message.waitFor();
      assert.match((await message.textContent())!, row.says);
      assert.equal(await page.getAttribute(input, "aria-invalid"), "true");
      const describedBy = await page.getAttribute(input, "aria-describedby");
      assert.ok(describedBy, "the field is described by the message");
      assert.equal(await page.getAttribute(`${CARD} .message.error`, "id"), describedBy);
      assert.equal(await page.evaluate("document.activeElement.name"), row.field, "focused");
      const other = `${CARD} input:not([name=${row.field}])[name]`;
      assert.equal(await page.getAttribute(other, "aria-invalid"), null, "only the one at fault");

      await page.fill(input, "");
      await page.keyboard.press("Enter");
      await page.waitForSelector(`${CARD} .message.ok`);
      assert.equal(await page.getAttribute(input, "aria-invalid"), null, "cleared once saved");
      assert.deepEqual(errors, []);
      await context.close();
    },
  );
}

settingsPageTest(
  "in Chromium, keyboard only: a refused field keeps its message and mark when the page shows new state meanwhile",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, { colorScheme: "light" });
    const input = `${CARD} input[name=base_url]`;
    await page.fill(input, "http://example.com");
    await page.focus(input);
    await page.keyboard.press("Enter");
    await page.locator(`${CARD} .message.error`).waitFor();
    // Another change re-renders the engine cards (as the tab shown again does): the message and
    // the mark once vanished while the refused value stayed typed, unsaved.
    await page.focus("#history-enabled");
    await page.keyboard.press("Space");
    await page.locator("#toast", { hasText: "History off" }).waitFor();
    assert.equal(await page.inputValue(input), "http://example.com");
    const message = page.locator(`${CARD} .message.error`);
    assert.equal(await message.count(), 1, "the message is still shown");
    assert.match((await message.textContent()) ?? "", /^The address must be a loopback/);
    assert.equal(await page.getAttribute(input, "aria-invalid"), "true");
    assert.equal(
      await page.getAttribute(input, "aria-describedby"),
      await message.getAttribute("id"),
    );
    assert.deepEqual(errors, []);
    await context.close();
  },
);
