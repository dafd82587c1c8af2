/**
 * A real browser extension's page in Chromium: an unpacked Manifest V3 extension, written to a
 * temporary folder and loaded with `--load-extension`, whose page (as a popup or options page is)
 * has the origin `chrome-extension://<id>`. It asks for no host permission, so its requests to
 * tolk are cross-origin and CORS applies, as for an extension that did not ask for one.
 */
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { CHROMIUM_PATH } from "./chromium.ts";
import { CALL_SCRIPT } from "./other_origin_page.ts";

/** The extension's page, open. */
export interface ExtensionPage {
  page: Page;
  /** `chrome-extension://<id>`. */
  origin: string;
}

const MANIFEST = {
  manifest_version: 3,
  name: "tolk test extension",
  version: "1.0",
  // The worker makes the extension's id known (its URL) as soon as it is loaded.
  background: { service_worker: "worker.js" },
};

/** Loads the extension in a fresh Chromium profile, opens its page and closes all after `fn`. */
export async function withExtensionPage(fn: (extension: ExtensionPage) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "tolk-extension-" });
  const extension = join(dir, "extension");
  await Deno.mkdir(extension);
  await Deno.writeTextFile(join(extension, "manifest.json"), JSON.stringify(MANIFEST));
  await Deno.writeTextFile(join(extension, "worker.js"), "");
  // Extension pages run no inline script: the page's script is a file of the extension.
  await Deno.writeTextFile(join(extension, "page.js"), CALL_SCRIPT);
  await Deno.writeTextFile(
    join(extension, "page.html"),
    '<!doctype html><title>extension</title><script src="page.js"></script>',
  );
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(join(dir, "profile"), {
      executablePath: CHROMIUM_PATH,
      args: [
        "--no-sandbox",
        "--headless",
        "--disable-gpu",
        `--disable-extensions-except=${extension}`,
        `--load-extension=${extension}`,
      ],
    });
    const worker = context.serviceWorkers()[0] ?? await context.waitForEvent("serviceworker");
    // `new URL` gives a chrome-extension: URL the origin "null"; its host is the id.
    const origin = `chrome-extension://${new URL(worker.url()).host}`;
    const page = await context.newPage();
    await page.goto(`${origin}/page.html`);
    await fn({ page, origin });
  } finally {
    await context?.close();
    await Deno.remove(dir, { recursive: true });
  }
}
