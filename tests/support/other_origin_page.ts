/**
 * A web app of another origin on this machine, as a user's page that calls tolk: a tiny static
 * server on its own loopback port serving one HTML page, opened in Chromium. Requests from it to
 * the service are cross-origin (another port), so the browser applies CORS as for any site.
 */
import type { Browser, Page } from "playwright-core";

/** The page of the other origin, open in Chromium. */
export interface OtherOriginPage {
  page: Page;
  /** The page's origin (`http://127.0.0.1:<port>`). */
  origin: string;
  /** Console errors and page errors of the page. */
  errors: string[];
}

/**
 * Serves `html` (the body of a page) from another loopback port and opens it in a new context
 * of `browser`; the server stops with `fn`.
 */
export async function withOtherOriginPage(
  browser: Browser,
  html: string,
  fn: (other: OtherOriginPage) => Promise<void>,
): Promise<void> {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response(`<!doctype html><html lang="en"><title>app</title>${html}</html>`, {
        headers: { "content-type": "text/html; charset=utf-8" },
      }),
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${origin}/`);
    await fn({ page, origin, errors });
  } finally {
    await context.close();
    await server.shutdown();
  }
}

/** What {@link call} returns: the answer as a page's script can read it, or the browser's refusal. */
export interface Seen {
  status?: number;
  body?: string;
  retryAfter?: string | null;
  requestId?: string | null;
  /** The error `fetch` rejected with (CORS refused, connection failed). */
  blocked?: string;
}

/** A page script defining `call(url, init)`: fetches and returns what the script can read. */
export const CALL_SCRIPT = `window.call = async (url, init) => {
  try {
    const response = await fetch(url, init);
    return {
      status: response.status,
      body: await response.text(),
      retryAfter: response.headers.get("retry-after"),
      requestId: response.headers.get("x-request-id"),
    };
  } catch (error) {
    return { blocked: String(error) };
  }
};`;

/** Runs the page's `call` (see {@link CALL_SCRIPT}). */
export function call(page: Page, url: string, init: RequestInit): Promise<Seen> {
  type Caller = { call(url: string, init: RequestInit): Promise<Seen> };
  return page.evaluate(
    ([url, init]) => (globalThis as unknown as Caller).call(url, init),
    [url, init] as const,
  );
}
