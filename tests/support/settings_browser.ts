/**
 * The settings page opened in Chromium the way a user does: a one-time link in a fresh browser
 * context on a phone-sized window, with every request, console error and page error recorded so
 * a test can assert there were none.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "./chromium.ts";
import { settingsLink, WITH_LINK_KEY } from "./settings_session.ts";
import {
  type TestService,
  type TestServiceOptions,
  withTranslationService,
} from "./translation_service.ts";

/** A phone-sized window: the page must fit it without horizontal scrolling. */
export const PHONE = { width: 390, height: 844 };

/** Browser tests keep Chromium's pipes open across the test's awaits. */
export const BROWSER_TEST = { sanitizeOps: false, sanitizeResources: false };

/** One open settings page. */
export interface Session {
  service: TestService;
  context: BrowserContext;
  page: Page;
  /** Every URL the browser requested. */
  urls: string[];
  /** Console errors and page errors. */
  errors: string[];
}

/** Opens a one-time link in a new context (its own cookie jar); dialogs are accepted. */
export async function openPage(
  browser: Browser,
  service: TestService,
  options: { colorScheme: "light" | "dark" },
): Promise<Session> {
  const context = await browser.newContext({ viewport: PHONE, colorScheme: options.colorScheme });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: service.url });
  const { page, urls, errors } = await openTab(context);
  await page.goto(await settingsLink(service));
  await page.waitForSelector("body[data-ready]");
  return { service, context, page, urls, errors };
}

/** A new tab of `context`, recording its requests and errors. */
export async function openTab(context: BrowserContext) {
  const page = await context.newPage();
  const urls: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  page.on("console", (message) => {
    // Refusals the test provokes (400 for a bad address) are logged by Chromium as resources.
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
      errors.push(message.text());
    }
  });
  page.on("response", (response) => {
    if (response.status() === 404) errors.push(`404 ${response.url()}`);
  });
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("dialog", (dialog) => dialog.accept());
  return { page, urls, errors };
}

/** Runs `fn` with a started Chromium and always closes it. */
export async function withBrowser(fn: (browser: Browser) => Promise<void>) {
  const browser = await launchChromium();
  try {
    await fn(browser);
  } finally {
    await browser.close();
  }
}

/** A browser test with Chromium and a fresh translation service, both stopped after `body`. */
export function browserServiceTest(
  name: string,
  body: (browser: Browser, service: TestService) => Promise<void>,
  options?: TestServiceOptions,
): void {
  Deno.test({
    ...BROWSER_TEST,
    name,
    fn: () =>
      withBrowser((browser) =>
        withTranslationService((service) => body(browser, service), options)
      ),
  });
}

/**
 * A browser test of the settings page: Chromium and a service whose settings hold a link key,
 * both stopped after `body`.
 */
export function settingsPageTest(
  name: string,
  body: (browser: Browser, service: TestService) => Promise<void>,
): void {
  browserServiceTest(name, body, { settings: WITH_LINK_KEY });
}
