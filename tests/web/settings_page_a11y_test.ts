/**
 * The settings page as a keyboard and screen-reader user meets it, in Chromium: Tab reaches every
 * enabled control, each has a name; headings are named by their own words; a message that says
 * something failed stays on screen until the next message (a toast that fades is missed).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { openPage, settingsPageTest } from "../support/settings_browser.ts";

/** A control as the test names it: its card's engine and its id, field name or accessible name. */
const DESCRIBE = `(element) => [element.closest("[data-engine]")?.dataset.engine ?? "page",
  element.id || element.name || element.getAttribute("aria-label") || element.textContent.trim()
].join(" ")`;

/** What a keyboard user can act on. */
const CONTROLS = "a[href], button, input, select, textarea";

/** Every enabled, visible control of the page, in document order. */
function enabledControls(page: Page): Promise<string[]> {
  return page.evaluate(`[...document.querySelectorAll(${JSON.stringify(CONTROLS)})]
    .filter((element) => !element.disabled && element.getClientRects().length > 0)
    .map(${DESCRIBE})`);
}

/** The controls Tab visits from the top of the page until the focus leaves the page's controls. */
async function tabOrder(page: Page): Promise<string[]> {
  const visited: string[] = [];
  await page.evaluate("document.activeElement.blur()");
  for (let i = 0; i < 200; i++) {
    await page.keyboard.press("Tab");
    const at = await page.evaluate(`(() => {
      const element = document.activeElement;
      return element === document.body || element === null ? null : (${DESCRIBE})(element);
    })()`);
    if (at === null || visited.includes(at as string)) break;
    visited.push(at as string);
  }
  return visited;
}

settingsPageTest(
  "in Chromium, keyboard only: Tab reaches every enabled control in the page's order, and each has a name",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, { colorScheme: "light" });
    const controls = await enabledControls(page);
    assert.ok(controls.length > 20, controls.join());
    assert.deepEqual(await tabOrder(page), controls);
    const unnamed = await page.evaluate(`[...document.querySelectorAll(${JSON.stringify(CONTROLS)})]
      .filter((element) => !(element.labels?.length || element.getAttribute("aria-label") ||
        element.textContent.trim()))
      .map((element) => element.outerHTML)`);
    assert.deepEqual(unnamed, []);
    assert.deepEqual(errors, []);
    await context.close();
  },
);

settingsPageTest(
  "in Chromium, a screen reader's list of headings: each snippet heading is its title, not 'curl Copy curl'",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, { colorScheme: "light" });
    for (const title of ["curl", "Browser WebSocket", "API description (OpenAPI 3.1)"]) {
      const heading = page.getByRole("heading", { level: 3, name: title, exact: true });
      assert.equal(
        await heading.count(),
        1,
        `${title}: ${await page.locator("main").ariaSnapshot()}`,
      );
      // Its Copy button is still there, named for it, and copies its snippet.
      await page.getByRole("button", { name: `Copy ${title}`, exact: true }).focus();
      await page.keyboard.press("Enter");
      await page.locator("#toast", { hasText: "Copied" }).waitFor();
      await page.evaluate("document.getElementById('toast').textContent = ''");
    }
    assert.deepEqual(errors, []);
    await context.close();
  },
);

settingsPageTest(
  "in Chromium, keyboard only: a failure told in the toast stays shown until the next message, a success fades",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, { colorScheme: "light" });
    // The page's own clock: its timers run when the test says, not after a real wait.
    await page.clock.install();
    await page.focus("#history-enabled");
    await page.keyboard.press("Space");
    await page.locator("#toast.shown", { hasText: "History off" }).waitFor();
    await page.clock.runFor(60_000);
    assert.equal(await page.locator("#toast.shown").count(), 0, "a success fades");

    await page.route("**/settings/api/**", (route) => route.abort("connectionrefused"));
    await page.keyboard.press("Space");
    await page.locator("#toast.shown", { hasText: /cannot reach/i }).waitFor();
    await page.clock.runFor(60_000);
    assert.equal(
      await page.locator("#toast.shown", { hasText: /nothing was saved/i }).count(),
      1,
      "the failure is still shown",
    );
    // The next message replaces it, and fades as a success does.
    await page.unroute("**/settings/api/**");
    await page.keyboard.press("Space");
    await page.locator("#toast.shown", { hasText: "History on" }).waitFor();
    await page.clock.runFor(60_000);
    assert.equal(await page.locator("#toast.shown").count(), 0);
    assert.deepEqual(errors.filter((error) => !error.includes("ERR_CONNECTION_REFUSED")), []);
    await context.close();
  },
);

settingsPageTest(
  "in Chromium, keyboard only: Try it's translation is marked with its language, so a screen reader reads it in that language's voice",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, { colorScheme: "light" });
    await page.selectOption("#try-target", "de");
    await page.focus("#try-form button[type=submit]");
    await page.keyboard.press("Enter");
    await page.locator("#try-output .meta").waitFor();
    assert.equal(await page.getAttribute("#try-output > div:first-child", "lang"), "de");
    // The line about it (languages, engine, time) is the page's own English.
    assert.equal(await page.getAttribute("#try-output .meta", "lang"), null);
    assert.deepEqual(errors, []);
    await context.close();
  },
);

settingsPageTest(
  "in Chromium, a screen reader on a switch hears what it means now: each switch is described by its hint",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, { colorScheme: "light" });
    for (
      const [id, says] of [["api-enabled", /Clients on this computer/], [
        "history-enabled",
        /no translation is kept/,
      ]] as const
    ) {
      const describedBy = await page.getAttribute(`#${id}`, "aria-describedby");
      assert.ok(describedBy, `${id} has a description`);
      const text = await Promise.all(
        describedBy.split(" ").map((one) => page.textContent(`#${one}`)),
      );
      assert.match(text.join(" "), says, id);
    }
    assert.deepEqual(errors, []);
    await context.close();
  },
);

settingsPageTest(
  "in Chromium, keyboard only: Translate with an empty box marks the box invalid, described by the message, until a text is sent",
  async (browser, service) => {
    const { page, errors, context } = await openPage(browser, service, { colorScheme: "light" });
    await page.fill("#try-text", "");
    await page.focus("#try-form button[type=submit]");
    await page.keyboard.press("Enter");
    await page.locator("#try-output.error").waitFor();
    // The focus moves to the box: its description is what a screen reader says there.
    assert.equal(await page.getAttribute("#try-text", "aria-invalid"), "true");
    const describedBy = await page.getAttribute("#try-text", "aria-describedby");
    assert.match((await page.textContent(`#${describedBy}`)) ?? "", /type a text/i);

    await page.keyboard.type("Good morning");
    await page.focus("#try-form button[type=submit]");
    await page.keyboard.press("Enter");
    await page.locator("#try-output .meta").waitFor();
    assert.equal(await page.getAttribute("#try-text", "aria-invalid"), null);
    assert.deepEqual(errors, []);
    await context.close();
  },
);
