/**
 * A user's web app on another loopback origin runs the README's browser WebSocket snippet byte
 * for byte (only its address changed to the test service's, `token` defined before it) in
 * Chromium, then goes on using the snippet's `ws` as the README describes: several frames, each
 * answered in order, an error frame that leaves the connection open, and the documented close
 * codes and reasons as the page's CloseEvent reads them.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { codeBlockAfter } from "../support/readme_commands.ts";
import { withOtherOriginPage } from "../support/other_origin_page.ts";
import { browserServiceTest } from "../support/settings_browser.ts";
import { BROWSER_TEST, withBrowser } from "../support/settings_browser.ts";
import { startTranslationService, type TestService } from "../support/translation_service.ts";

const README_ADDRESS = "ws://127.0.0.1:8765";

/**
 * The page's script: the README snippet as written, then a recorder of what `ws` receives
 * (added with addEventListener, so the snippet's own handlers stay as they are).
 */
async function pageHtml(service: TestService, token = service.token): Promise<string> {
  const snippet = await codeBlockAfter("### WebSocket", "js");
  assert.ok(snippet.includes(README_ADDRESS), snippet);
  const code = snippet.replaceAll(README_ADDRESS, service.wsUrl);
  const recorder = `
window.socket = ws; // a const of a classic script is no property of window
window.replies = [];
const waiting = [];
window.opened = new Promise((resolve) => ws.addEventListener("open", resolve));
window.closedWith = new Promise((resolve) => ws.addEventListener("close", (event) =>
  resolve({ code: event.code, reason: event.reason, wasClean: event.wasClean })));
ws.addEventListener("message", (event) => {
  replies.push(JSON.parse(event.data));
  for (const wait of waiting.splice(0)) wait();
});
window.repliesUpTo = (count) => new Promise(function check(resolve) {
  if (replies.length >= count) resolve(replies.slice(0, count));
  else waiting.push(() => check(resolve));
});`;
  const literal = JSON.stringify(token).replaceAll("<", "\\u003c");
  return `<script>const token = ${literal};\n${code}\n${recorder}</script>`;
}

/** A reply frame as the page parsed it: a translation or an error. */
interface Reply {
  object?: string;
  target?: string;
  results?: unknown[];
  error?: { code: string; param: string | null };
}

/** What the page's script (see pageHtml) puts on its window. */
interface PageGlobals {
  socket: WebSocket;
  opened: Promise<void>;
  closedWith: Promise<{ code: number; reason: string; wasClean: boolean }>;
  replies: Reply[];
  repliesUpTo(count: number): Promise<Reply[]>;
}

/** Sends each request as a frame on the page's `ws` (after it opened). */
async function send(page: Page, requests: unknown[]) {
  await page.evaluate(async (frames) => {
    const globals = globalThis as unknown as PageGlobals;
    await globals.opened;
    for (const frame of frames) globals.socket.send(JSON.stringify(frame));
  }, requests);
}

function repliesUpTo(page: Page, count: number): Promise<Reply[]> {
  return page.evaluate((n) => (globalThis as unknown as PageGlobals).repliesUpTo(n), count);
}

function closed(page: Page) {
  return page.evaluate(() => (globalThis as unknown as PageGlobals).closedWith);
}

browserServiceTest(
  "README WebSocket snippet in a page of another origin: several frames answered in order, an error frame leaves it open",
  async (browser, service) => {
    await withOtherOriginPage(browser, await pageHtml(service), async ({ page, errors }) => {
      await send(page, [
        { target: "fr", texts: ["Good evening", "See you"] },
        { target: "xx", texts: ["Hello"] },
        { target: "fr", texts: [] },
        { target: "de", texts: ["Thank you"], mode: "message" },
      ]);
      // The snippet's own frame (sent on open) comes first.
      const replies = await repliesUpTo(page, 5);
      assert.deepEqual(
        replies.map((reply) => reply.object ?? reply.error?.code),
        ["translation", "translation", "unsupported_language", "invalid_request", "translation"],
        JSON.stringify(replies),
      );
      assert.deepEqual(replies.map((reply) => reply.target ?? reply.error?.param), [
        "ja",
        "fr",
        "target",
        "texts",
        "de",
      ]);
      assert.equal(replies[1].results?.length, 2);
      assert.equal(await page.evaluate("ws.readyState"), 1, "still open after error frames");
      assert.deepEqual(errors, []);
    });
  },
);

browserServiceTest(
  "README WebSocket snippet in a page of another origin: a revoke while connected is an error frame, then close 4401 'token revoked'",
  async (browser, service) => {
    await withOtherOriginPage(browser, await pageHtml(service), async ({ page }) => {
      assert.equal((await repliesUpTo(page, 1))[0].object, "translation");
      service.store.update((settings) => {
        settings.api.token = null;
      });
      await send(page, [{ target: "fr", texts: ["Hello"] }]);
      const [, refused] = await repliesUpTo(page, 2);
      assert.equal(refused.error?.code, "ws_unauthorized", JSON.stringify(refused));
      assert.deepEqual(await closed(page), { code: 4401, reason: "token revoked", wasClean: true });
    });
  },
);

browserServiceTest(
  "README WebSocket snippet in a page of another origin: a frame over 1 MiB closes with 1009 after the earlier replies",
  async (browser, service) => {
    await withOtherOriginPage(browser, await pageHtml(service), async ({ page }) => {
      await send(page, [{ target: "fr", texts: ["Hello"] }]);
      await page.evaluate(() => {
        (globalThis as unknown as PageGlobals).socket.send(
          JSON.stringify({ target: "fr", texts: ["x".repeat(1 << 20)] }),
        );
      });
      const close = await closed(page);
      assert.equal(close.code, 1009, JSON.stringify(close));
      assert.equal(close.wasClean, true);
      const replies = await page.evaluate(() => (globalThis as unknown as PageGlobals).replies);
      assert.deepEqual(replies.map((reply) => reply.target), ["ja", "fr"]);
    });
  },
);

Deno.test({
  ...BROWSER_TEST,
  name:
    "README WebSocket snippet in a page of another origin: the service shutting down closes with 1001",
  fn: () =>
    withBrowser(async (browser) => {
      const service = await startTranslationService();
      let stopped = false;
      try {
        await withOtherOriginPage(browser, await pageHtml(service), async ({ page }) => {
          await repliesUpTo(page, 1);
          const close = closed(page);
          await service.stop();
          stopped = true;
          const event = await close;
          assert.equal(event.code, 1001, JSON.stringify(event));
          assert.equal(event.wasClean, true);
        });
      } finally {
        if (!stopped) await service.stop();
      }
    }),
});

browserServiceTest(
  "README WebSocket snippet in a page of another origin: a wrong token is a close with 1006 and no reply, as the README says",
  async (browser, service) => {
    const html = await pageHtml(service, "wrong-token-QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ");
    await withOtherOriginPage(browser, html, async ({ page }) => {
      // The 401 answer of the handshake never reaches the page: the browser only says it closed.
      assert.deepEqual(await closed(page), { code: 1006, reason: "", wasClean: false });
      assert.deepEqual(
        await page.evaluate(() => (globalThis as unknown as PageGlobals).replies),
        [],
      );
    });
  },
);
