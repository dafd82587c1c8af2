/**
 * Editing engines on the settings page as a user does: with the keyboard, and across cards — a
 * change saved or switched elsewhere on the page does not wipe what is typed, unsaved, in another.
 */
import assert from "node:assert/strict";
import { openPage, settingsPageTest } from "../support/settings_browser.ts";

const card = (id: string) => `[data-engine="${id}"]`;

settingsPageTest(
  "in Chromium: Enter in an engine's address field saves it, as its Save button does",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, {
      colorScheme: "light",
    });
    await page.fill(`${card("engine-two")} input[name=base_url]`, "http://127.0.0.1:1234");
    await page.focus(`${card("engine-two")} input[name=base_url]`);
    await page.keyboard.press("Enter");
    await page.waitForSelector(`${card("engine-two")} .message.ok`);
    assert.equal(service.store.read().engines["engine-two"].base_url, "http://127.0.0.1:1234");
    assert.equal(
      await page.evaluate("document.activeElement.name"),
      "base_url",
      "the focus stays in the field",
    );
    assert.deepEqual(errors, []);
    await context.close();
  },
);

settingsPageTest(
  "in Chromium: what is typed, unsaved, in one engine's card survives a save of another card and the API switch",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, {
      colorScheme: "light",
    });
    const typed = `${card("engine-two")} input[name=model]`;
    await page.fill(typed, "typed-not-saved");
    await page.fill(`${card("engine-one")} input[name=model]`, "saved-model");
    await page.click(`${card("engine-one")} button.primary`);
    await page.waitForSelector(`${card("engine-one")} .message.ok`);
    // It once rebuilt every card from the saved state and dropped the typing.
    assert.equal(await page.inputValue(typed), "typed-not-saved");
    await page.click("#api-enabled");
    await page.locator("#toast", { hasText: "Local API off" }).waitFor();
    assert.equal(await page.inputValue(typed), "typed-not-saved");
    assert.equal(service.store.read().engines["engine-two"].model, null, "not saved");
    assert.deepEqual(errors, []);
    await context.close();
  },
);

settingsPageTest(
  "in Chromium: every button has a name of its own, so a screen reader user knows which Save or Copy it is",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, {
      colorScheme: "light",
    });
    const names = await page.locator("button").evaluateAll((buttons) =>
      buttons.map((button) =>
        (button.getAttribute("aria-label") ?? button.textContent ?? "").trim()
      )
    );
    const repeated = names.filter((name, index) => names.indexOf(name) !== index);
    // It once had four "Save" and five "Copy" buttons.
    assert.deepEqual([...new Set(repeated)], []);
    assert.ok(names.includes("Save Local model runner (Ollama)"), names.join(" | "));
    assert.ok(names.includes("Copy curl"), names.join(" | "));
    assert.deepEqual(errors, []);
    await context.close();
  },
);

settingsPageTest(
  "in Chromium: every field has a name of its own, so a screen reader user knows whose Address or Model it is",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, {
      colorScheme: "light",
    });
    const names = await page.locator("main input, main textarea, main select").evaluateAll(
      (fields) =>
        fields.map((field) => {
          const labels = (field as unknown as { labels: { textContent: string }[] }).labels;
          return (field.getAttribute("aria-label") ?? labels[0]?.textContent ?? "").trim();
        }),
    );
    const repeated = names.filter((name, index) => names.indexOf(name) !== index);
    // It once had four fields named "Model" and three named "Address".
    assert.deepEqual([...new Set(repeated)], []);
    assert.ok(names.includes("Address of Local model runner (Ollama)"), names.join(" | "));
    assert.ok(names.includes("Model of Built-in local model"), names.join(" | "));
    assert.deepEqual(errors, []);
    await context.close();
  },
);

settingsPageTest(
  "in Chromium: an engine that is not ready says why on its card, as the service knows it",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, {
      colorScheme: "light",
    });
    const address = service.store.read().engines["engine-one"].base_url!;
    const why = page.locator(`${card("engine-one")} .why`);
    // It once showed only "not ready": the reason (here, nothing answers at the address) was
    // known to the service, which puts it in its 503 messages, but never on the page.
    await why.waitFor();
    assert.match((await why.textContent())!, new RegExp(address.replaceAll(".", "\\.")));
    assert.equal(await page.locator(`${card("local-llm")} .why`).count(), 0, "ready: no reason");
    assert.deepEqual(errors, []);
    await context.close();
  },
);

settingsPageTest(
  "in Chromium: the chat-completions card says whether an API key is set, never what it is",
  async (browser, service) => {
    const key = "sk-local-key-CCCCCCCCCCCCCCCCCCCC";
    const { page, errors, context } = await openPage(browser, service, {
      colorScheme: "light",
    });
    const line = page.locator(`${card("compatible-api")} .key`);
    // It once said nothing of the key: the state had has_api_key, the page never showed it.
    assert.match((await line.textContent())!, /API key: not set/i);
    service.store.update((settings) => {
      (settings.engines["compatible-api"] as Record<string, unknown>).api_key = key;
    });
    await page.reload();
    await page.waitForSelector("body[data-ready]");
    assert.match((await line.textContent())!, /API key: set/i);
    assert.ok(!(await page.content()).includes(key), "the key is never on the page");
    assert.deepEqual(errors, []);
    await context.close();
  },
);
