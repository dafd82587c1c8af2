/**
 * Debian's Chromium driven by playwright-core, for the browser tests. When Chromium is missing or
 * cannot start, the test fails with the reason (it never passes silently).
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Where Debian's `chromium` package puts the browser (`apt-get install -y chromium`). */
export const CHROMIUM_PATH = Deno.env.get("TOLK_CHROMIUM") ?? "/usr/bin/chromium";

/** Where browser tests write their screenshots (git-ignored). */
export const SCREENSHOT_DIR = new URL("../../.tmp/screenshots/", import.meta.url).pathname;

/**
 * Starts headless Chromium. `backForwardCache: true` keeps Chromium's back/forward cache on,
 * which playwright turns off by default (`--disable-back-forward-cache`), for a test of what a
 * user's Back button does.
 *
 * @throws {Error} naming the missing file or the launch failure.
 */
export async function launchChromium(
  options: { backForwardCache?: boolean } = {},
): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install it with \`apt-get install -y chromium\` ` +
        "(or set TOLK_CHROMIUM to its path); the browser tests cannot run without it",
    );
  }
  try {
    return await chromium.launch({
      executablePath: CHROMIUM_PATH,
      ignoreDefaultArgs: options.backForwardCache ? ["--disable-back-forward-cache"] : [],
      args: [
        "--no-sandbox",
        "--headless",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    });
  } catch (error) {
    throw new Error(`Chromium at ${CHROMIUM_PATH} cannot start: ${(error as Error).message}`);
  }
}
