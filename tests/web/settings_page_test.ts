/**
 * The settings page in a real browser (Debian's Chromium via playwright-core), against the real
 * service: open the link, enable the API, reveal and copy the token, rotate it while a WebSocket
 * is open, edit an engine address, translate in the try-it box. Screenshots go to
 * `.tmp/screenshots/` (git-ignored).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { SCREENSHOT_DIR } from "../support/chromium.ts";
import { BROWSER_TEST, openPage, PHONE, withBrowser } from "../support/settings_browser.ts";
import { startOllamaStandIn } from "../support/ollama_stand_in.ts";
import { WITH_LINK_KEY } from "../support/settings_session.ts";
import {
  FIXTURE_MODEL,
  FIXTURE_MODELS_DIR,
  withTranslationService,
} from "../support/translation_service.ts";

/** What the page shows in place of the token until Reveal. */
const MASK = "•".repeat(24);

async function shot(page: Page, name: string, fullPage = false) {
  await Deno.mkdir(SCREENSHOT_DIR, { recursive: true });
  // The toast fades out on its own; hidden so it does not cover what the picture shows (an
  // injected style sheet would be refused by the page's CSP, as it should be).
  await page.evaluate("document.getElementById('toast')?.setAttribute('hidden', '')");
  await page.screenshot({ path: `${SCREENSHOT_DIR}settings_${name}.png`, fullPage });
  await page.evaluate("document.getElementById('toast')?.removeAttribute('hidden')");
}

const API_OFF = { ...WITH_LINK_KEY, api: { enabled: false, token: null } };

Deno.test({
  ...BROWSER_TEST,
  name:
    "in Chromium: open the link, enable the API, reveal and copy the token, rotate it and see the open WebSocket closed with 4401",
  fn: () =>
    withBrowser((browser) =>
      withTranslationService(async (service) => {
        const { page, urls, errors, context } = await openPage(browser, service, {
          colorScheme: "light",
        });
        assert.equal(new URL(page.url()).search, "", "the spent code left the address bar");
        await shot(page, "opened", true);

        await page.click("#api-enabled");
        await page.locator("#api-hint", { hasText: /^Clients/ }).waitFor();
        const token = service.store.read().api.token!;
        assert.equal(service.store.read().api.enabled, true);
        assert.equal(await page.textContent("#token"), MASK, "masked until Reveal");
        await shot(page, "enabled"); // the README's picture (docs/settings_page.png)

        await page.click("#reveal");
        await page.locator("#token", { hasText: token }).waitFor();
        await shot(page, "revealed");
        await page.click("#copy");
        await page.locator("#toast", { hasText: "Token copied" }).waitFor();
        assert.equal(await page.evaluate("navigator.clipboard.readText()"), token);

        await page.evaluate(async (t) => {
          const socket = new WebSocket(`ws://${location.host}/v1/ws/translate`, ["bearer", t]);
          (globalThis as unknown as { socket: WebSocket }).socket = socket;
          await new Promise((resolve, reject) => {
            socket.onopen = resolve;
            socket.onerror = reject;
          });
        }, token);
        await page.click("#rotate");
        await page.locator("#toast", { hasText: "New token made" }).waitFor();
        const rotated = service.store.read().api.token;
        assert.ok(rotated && rotated !== token, "a new token");
        assert.equal(await page.textContent("#token"), MASK, "masked again");
        const closeCode = await page.evaluate(() =>
          new Promise<number>((resolve) => {
            const socket = (globalThis as unknown as { socket: WebSocket }).socket;
            socket.onclose = (event) => resolve(event.code);
            socket.send(JSON.stringify({ target: "fr", texts: ["Good morning."] }));
          })
        );
        assert.equal(closeCode, 4401);

        // The DeepLX snippet is the address a DeepLX client posts to, and it answers.
        const snippets = await page.textContent("#snippet-list") ?? "";
        const deeplx = /http:\/\/\S+\/deeplx\S*/.exec(snippets)?.[0];
        assert.equal(deeplx, `${service.url}/v1/compat/deeplx/translate`);
        const answer = await fetch(deeplx!, {
          method: "POST",
          headers: { authorization: `Bearer ${rotated}`, "content-type": "application/json" },
          body: JSON.stringify({ text: "Good morning.", source_lang: "EN", target_lang: "EN" }),
        });
        assert.equal(answer.status, 200, await answer.text());

        for (const secret of [token, rotated]) {
          assert.ok(!urls.some((url) => url.includes(secret)), "no token in a URL");
          assert.ok(!service.logs.some((line) => line.includes(secret)), "no token in a log");
        }
        assert.deepEqual(errors, []);
        await context.close();
      }, { settings: API_OFF })
    ),
});

Deno.test({
  ...BROWSER_TEST,
  name:
    "in Chromium: a non-loopback engine address is refused with a message, a loopback one is saved and used",
  fn: () =>
    withBrowser(async (browser) => {
      const standIn = startOllamaStandIn();
      try {
        await withTranslationService(async (service) => {
          const { page, errors, context } = await openPage(browser, service, {
            colorScheme: "dark",
          });
          const card = '[data-engine="engine-one"]';
          await page.fill(`${card} input[name=base_url]`, "http://192.168.1.20:11434");
          await page.click(`${card} button.primary`);
          await page.waitForSelector(`${card} .message.error`);
          assert.match((await page.textContent(`${card} .message`))!, /loopback/);
          await page.locator(card).scrollIntoViewIfNeeded();
          await shot(page, "refused_address");
          assert.notEqual(
            service.store.read().engines["engine-one"].base_url,
            "http://192.168.1.20:11434",
          );

          await page.fill(`${card} input[name=base_url]`, standIn.baseUrl);
          await page.click(`${card} button.primary`);
          await page.waitForSelector(`${card} .message.ok`);
          assert.equal(await page.textContent(`${card} .badge`), "ready");
          assert.equal(service.store.read().engines["engine-one"].base_url, standIn.baseUrl);
          await shot(page, "saved_address");
          await shot(page, "dark_full", true);
          assert.deepEqual(errors, []);
          await context.close();
        }, { settings: WITH_LINK_KEY, statusTtlMs: 0 });
      } finally {
        await standIn.stop();
      }
    }),
});

Deno.test({
  ...BROWSER_TEST,
  name:
    "in Chromium: an emptied built-in model is refused in the page's words, without the settings key",
  fn: () =>
    withBrowser((browser) =>
      withTranslationService(async (service) => {
        const { page, errors, context } = await openPage(browser, service, {
          colorScheme: "light",
        });
        const card = '[data-engine="local-llm"]';
        await page.fill(`${card} input[name=model]`, "");
        await page.click(`${card} button.primary`);
        await page.waitForSelector(`${card} .message.error`);
        // It once read "The model engines.local-llm.model must not be empty".
        assert.equal(await page.textContent(`${card} .message`), "The model must not be empty");
        assert.equal(service.store.read().engines["local-llm"].model, "tolk-test/tiny-nllb");
        assert.deepEqual(errors, []);
        await context.close();
      }, { settings: WITH_LINK_KEY })
    ),
});

Deno.test({
  ...BROWSER_TEST,
  name: "in Chromium: the try-it box translates through the real API",
  fn: () =>
    withBrowser((browser) =>
      withTranslationService(async (service) => {
        const { page, urls, errors, context } = await openPage(browser, service, {
          colorScheme: "light",
        });
        await page.selectOption("#try-target", "fr");
        await page.fill("#try-text", "Good morning, how are you?");
        await page.click("#try-form button[type=submit]");
        await page.waitForSelector("#try-output .meta");
        const meta = (await page.textContent("#try-output .meta"))!;
        assert.match(meta, /^en → fr · local-llm · tolk-test\/tiny-nllb · \d+ ms$/);
        assert.ok((await page.textContent("#try-output div"))!.length > 0);
        assert.ok(urls.some((url) => url.endsWith("/v1/translate")), "the real API was called");
        assert.ok(!urls.some((url) => url.includes(service.token)));
        await page.locator("#try-output").scrollIntoViewIfNeeded();
        await shot(page, "try_it");
        assert.deepEqual(errors, []);
        await context.close();
      }, { settings: WITH_LINK_KEY })
    ),
});

Deno.test({
  ...BROWSER_TEST,
  name: "in Chromium: /settings without a session explains how to get a link",
  fn: () =>
    withBrowser((browser) =>
      withTranslationService(async (service) => {
        const context = await browser.newContext({ viewport: PHONE });
        const page = await context.newPage();
        const response = await page.goto(`${service.url}/settings`);
        assert.equal(response?.status(), 401);
        assert.match((await page.textContent("main"))!, /tolk settings/);
        await shot(page, "no_session");
        await context.close();
      }, { settings: WITH_LINK_KEY })
    ),
});

Deno.test({
  ...BROWSER_TEST,
  name:
    "in Chromium, keyboard only: Enter on a Move button twice moves the engine twice, Save keeps the focus; a settings file broken by hand is named",
  fn: () =>
    withBrowser((browser) =>
      withTranslationService(async (service) => {
        const { page, errors, context } = await openPage(browser, service, {
          colorScheme: "light",
        });
        const order = () => service.store.read().engines.order;
        assert.equal(order()[0], "local-llm");
        const focusedLabel = () =>
          page.evaluate("document.activeElement.getAttribute('aria-label')");
        await page.focus('[data-engine="local-llm"] button[aria-label$=" down"]');
        for (const at of [1, 2]) {
          await page.keyboard.press("Enter");
          await page.waitForSelector(
            `#engine-list > li:nth-child(${at + 1})[data-engine="local-llm"]`,
          );
          assert.equal(order()[at], "local-llm", `moved to ${at + 1}`);
          assert.equal(
            await focusedLabel(),
            "Move Built-in local model down",
            "the focus stayed on the moved engine's Move button",
          );
        }
        const save = '[data-engine="engine-two"] button.primary';
        await page.focus(save);
        await page.keyboard.press("Enter");
        await page.waitForSelector('[data-engine="engine-two"] .message.ok');
        assert.ok(
          await page.evaluate(`document.activeElement === document.querySelector('${save}')`),
        );

        await Deno.writeTextFile(service.configPath, "{ edited by hand");
        await page.click("#api-enabled");
        await page.locator("#toast", { hasText: "not valid JSON" }).waitFor();
        assert.equal(
          await page.textContent("#toast"),
          `settings file ${service.configPath}: is not valid JSON; fix or remove it`,
        );
        assert.deepEqual(errors, []);
        await context.close();
      }, { settings: WITH_LINK_KEY })
    ),
});

Deno.test({
  ...BROWSER_TEST,
  name:
    "in Chromium on a phone: a long models folder and long model ids wrap instead of widening the page",
  fn: () =>
    withBrowser(async (browser) => {
      // As under a long home folder, with a model whose id is long (as many on the hub are).
      const root = await Deno.makeTempDir({ prefix: "tolk-long-models-" });
      const modelsDir =
        `${root}/home/alexandra.konstantinopoulou-vasileiou/.local/share/tolk/models`;
      // Copies: the models folder lists real folders only.
      await copyFolder(`${FIXTURE_MODELS_DIR}${FIXTURE_MODEL}`, `${modelsDir}/${FIXTURE_MODEL}`);
      await copyFolder(
        `${FIXTURE_MODELS_DIR}tolk-test/tiny-marian`,
        `${modelsDir}/Helsinki-NLP-community-models/opus-mt-tc-bible-big-deu_eng_fra_por_spa-mul`,
      );
      try {
        await withTranslationService(async (service) => {
          const { page, errors, context } = await openPage(browser, service, {
            colorScheme: "light",
          });
          await page.locator("#model-list", { hasText: "opus-mt-tc-bible" }).waitFor();
          const widths = await page.evaluate("[document.documentElement.scrollWidth, innerWidth]");
          assert.deepEqual(widths, [PHONE.width, PHONE.width], "no horizontal scrolling");
          await page.locator("#model-list").scrollIntoViewIfNeeded();
          await shot(page, "long_models");
          assert.deepEqual(errors, []);
          await context.close();
        }, { settings: WITH_LINK_KEY, modelsDir });
      } finally {
        await Deno.remove(root, { recursive: true });
      }
    }),
});

async function copyFolder(from: string, to: string) {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyFolder(`${from}/${entry.name}`, `${to}/${entry.name}`);
    else await Deno.copyFile(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}
