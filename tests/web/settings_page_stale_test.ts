/**
 * The settings page when what it shows is out of date: a change made in another tab, or in the
 * settings file by hand (or broken by hand), before the user acts on this page. The user gets a
 * clear message and the page shows the truth; nothing set elsewhere is lost.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { CapabilitiesResponseSchema } from "../../schemas/translation.ts";
import { startOllamaStandIn } from "../support/ollama_stand_in.ts";
import {
  BROWSER_TEST,
  openPage,
  openTab,
  settingsPageTest,
  withBrowser,
} from "../support/settings_browser.ts";
import { WITH_LINK_KEY } from "../support/settings_session.ts";
import { type TestService, withTranslationService } from "../support/translation_service.ts";

/** Two tabs of the page in one browser (one cookie jar), both loaded before any change. */
async function twoTabs(browser: Parameters<typeof openPage>[0], service: TestService) {
  const first = await openPage(browser, service, { colorScheme: "light" });
  const second = await openTab(first.context);
  await second.page.goto(`${service.url}/settings`);
  await second.page.waitForSelector("body[data-ready]");
  return { a: first.page, b: second.page, errors: [...first.errors, ...second.errors], first };
}

const ENGINE_ONE = '[data-engine="engine-one"]';

async function saveEngineOne(page: Page, field: "base_url" | "model", value: string) {
  await page.fill(`${ENGINE_ONE} input[name=${field}]`, value);
  await page.click(`${ENGINE_ONE} button.primary`);
  await page.waitForSelector(`${ENGINE_ONE} .message.ok, ${ENGINE_ONE} .message.error`);
}

settingsPageTest(
  "in Chromium, two tabs: Copy after the token was revoked in the other tab copies nothing and says so",
  async (browser, service) => {
    const { a, b, errors, first } = await twoTabs(browser, service);
    await a.click("#revoke");
    await a.locator("#toast", { hasText: "Token revoked" }).waitFor();
    // It once went on saying clients could use the API "with the token below": there is none.
    assert.match((await a.textContent("#api-hint"))!, /no token/);
    await b.evaluate("navigator.clipboard.writeText('before')");
    await b.click("#copy");
    await b.locator("#toast", { hasText: /no token/i }).waitFor();
    // It once copied the word "null" and said "Token copied".
    assert.equal(await b.evaluate("navigator.clipboard.readText()"), "before");
    assert.equal(await b.textContent("#token"), "no token (Rotate makes one)");
    assert.ok(await b.isDisabled("#copy"), "the page now shows there is no token");
    assert.deepEqual(errors, []);
    await first.context.close();
  },
);

settingsPageTest(
  "in Chromium, two tabs: Copy in a tab showing a token rotated in the other shows the token it copied",
  async (browser, service) => {
    const { a, b, errors, first } = await twoTabs(browser, service);
    await b.click("#reveal");
    await b.locator("#token", { hasText: service.token }).waitFor();
    await a.click("#rotate");
    await a.locator("#toast", { hasText: "New token made" }).waitFor();
    const rotated = service.store.read().api.token!;
    await b.click("#copy");
    await b.locator("#toast", { hasText: "Token copied" }).waitFor();
    assert.equal(await b.evaluate("navigator.clipboard.readText()"), rotated);
    // It once went on showing the old token beside the new one it had just copied.
    assert.equal(await b.textContent("#token"), rotated);
    assert.deepEqual(errors, []);
    await first.context.close();
  },
);

settingsPageTest(
  "in Chromium: saving an engine's address keeps its model set meanwhile in another tab or in the file by hand",
  async (browser, service) => {
    const { a, b, errors, first } = await twoTabs(browser, service);
    const engineOne = () => service.store.read().engines["engine-one"];
    await saveEngineOne(a, "model", "model-from-tab-a");
    assert.equal(engineOne().model, "model-from-tab-a");
    await saveEngineOne(b, "base_url", "http://127.0.0.1:9");
    // It once sent the stale, empty model field along and erased tab A's model.
    assert.equal(engineOne().base_url, "http://127.0.0.1:9");
    assert.equal(engineOne().model, "model-from-tab-a");
    assert.equal(await b.inputValue(`${ENGINE_ONE} input[name=model]`), "model-from-tab-a");

    const file = JSON.parse(await Deno.readTextFile(service.configPath));
    file.engines["engine-one"].model = "model-by-hand";
    await Deno.writeTextFile(service.configPath, JSON.stringify(file, null, 2));
    await saveEngineOne(a, "base_url", "http://127.0.0.1:10");
    assert.equal(engineOne().base_url, "http://127.0.0.1:10");
    assert.equal(engineOne().model, "model-by-hand");
    assert.deepEqual(errors, []);
    await first.context.close();
  },
);

settingsPageTest(
  "in Chromium, two tabs: a Move in a tab showing a stale order says so and loses no move made in the other",
  async (browser, service) => {
    const { a, b, errors, first } = await twoTabs(browser, service);
    const order = () => service.store.read().engines.order;
    await a.click('[data-engine="local-llm"] button[data-move="1"]');
    await a.locator("#toast", { hasText: "Order saved" }).waitFor();
    const moved = order();
    assert.equal(moved[1], "local-llm");
    await b.click('[data-engine="compatible-api"] button[data-move="-1"]');
    await b.locator("#toast", { hasText: /changed/ }).waitFor();
    assert.deepEqual(order(), moved, "tab A's move kept; tab B's refused");
    const shown = await b.$$eval(
      "#engine-list > li",
      (items) =>
        items.map((item) => (item as unknown as { dataset: { engine: string } }).dataset.engine),
    );
    assert.deepEqual(shown, moved, "tab B now shows the order as it is");
    assert.deepEqual(errors, []);
    await first.context.close();
  },
);

settingsPageTest(
  "in Chromium: with the settings file broken by hand, a refused switch shows the real state, a reload says the file is broken, and the file is kept",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, {
      colorScheme: "light",
    });
    assert.ok(await page.isChecked("#api-enabled"));
    const good = await Deno.readTextFile(service.configPath);
    const broken = '{ "api": { "enabled": true, } }\n';
    await Deno.writeTextFile(service.configPath, broken);
    await page.click("#api-enabled");
    await page.locator("#toast", { hasText: "not valid JSON" }).waitFor();
    // It once showed the switch off while the API stayed on.
    assert.ok(await page.isChecked("#api-enabled"), "the switch shows the API still on");
    assert.match((await page.locator("#file-problem").textContent())!, /not valid JSON/);

    await page.reload();
    await page.waitForSelector("body[data-ready]");
    const problem = page.locator("#file-problem");
    await problem.waitFor();
    assert.match((await problem.textContent())!, /not valid JSON/);
    assert.match((await problem.textContent())!, /settings\.json/);
    assert.equal(await Deno.readTextFile(service.configPath), broken, "the file is untouched");

    await Deno.writeTextFile(service.configPath, good);
    await page.reload();
    await page.waitForSelector("body[data-ready]");
    assert.equal(await page.locator("#file-problem").isVisible(), false, "fixed: no warning");
    assert.deepEqual(errors, []);
    await context.close();
  },
);

settingsPageTest(
  "in Chromium, two tabs: a Save after signing out in the other tab keeps what was typed and says the session ended",
  async (browser, service) => {
    const { a, b, errors, first } = await twoTabs(browser, service);
    await a.click("#logout");
    await a.locator("main", { hasText: "Open the settings with a link" }).waitFor();
    await b.fill(`${ENGINE_ONE} input[name=model]`, "typed-before-noticing");
    await b.click(`${ENGINE_ONE} button.primary`);
    await b.locator(`${ENGINE_ONE} .message.error`, { hasText: /session/ }).waitFor();
    // It once reloaded the tab into the "open the settings with a link" page: what was typed was
    // gone, and nothing said it had not been saved.
    assert.equal(await b.inputValue(`${ENGINE_ONE} input[name=model]`), "typed-before-noticing");
    const ended = b.locator("#session-ended");
    assert.match((await ended.textContent())!, /nothing was saved/i);
    assert.match((await ended.textContent())!, /tolk settings/);
    assert.equal(service.store.read().engines["engine-one"].model, null, "not saved");
    assert.deepEqual(errors, []);
    await first.context.close();
  },
);

settingsPageTest(
  "in Chromium, two tabs: Sign out in a tab whose session already ended in the other still signs out",
  async (browser, service) => {
    const { a, b, errors, first } = await twoTabs(browser, service);
    await a.click("#logout");
    await a.locator("main", { hasText: "Open the settings with a link" }).waitFor();
    await b.click("#logout");
    await b.locator("main", { hasText: "Open the settings with a link" }).waitFor();
    assert.deepEqual(errors, []);
    await first.context.close();
  },
);

Deno.test({
  ...BROWSER_TEST,
  name:
    "in Chromium: back on the page after the engine's server stopped, its card shows what the service says now",
  fn: () =>
    withBrowser(async (browser) => {
      const standIn = startOllamaStandIn();
      try {
        await withTranslationService(async (service) => {
          const { page, errors, context } = await openPage(browser, service, {
            colorScheme: "light",
          });
          const badge = page.locator(`${ENGINE_ONE} .badge`);
          assert.equal(await badge.textContent(), "ready");
          await standIn.stop(); // the runner quit while the user was in another tab
          const answer = await fetch(`${service.url}/v1/capabilities`);
          const capabilities = CapabilitiesResponseSchema.parse(await answer.json());
          const engineOne = capabilities.engines.find((engine) => engine.id === "engine-one");
          assert.equal(engineOne?.ready, false, "the service knows");
          // Headless Chromium has no other window to switch to: the event a browser sends when
          // the user comes back to the tab.
          await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))");
          // It once went on saying "ready" until a reload or a save.
          await page.locator(`${ENGINE_ONE} .badge`, { hasText: "not ready" }).waitFor();
          await page.locator(`${ENGINE_ONE} .why`, { hasText: "cannot reach" }).waitFor();
          assert.deepEqual(errors, []);
          await context.close();
        }, {
          settings: {
            ...WITH_LINK_KEY,
            engines: { "engine-one": { base_url: standIn.baseUrl, status_cache_ms: 0 } },
          },
          statusTtlMs: 0,
        });
      } finally {
        await standIn.stop(); // again when the test stopped it: a no-op
      }
    }),
});
