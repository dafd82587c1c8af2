/**
 * GET /settings — the settings page (plain files from `web/settings/`), the one-time link that
 * opens a session, and POST /settings/link, where `tolk settings` asks for that link.
 *
 * Outside `/v1`: a page, not API. Nothing served here holds a secret; the page reads its data
 * from `/settings/api/*` with the session cookie.
 */
import { type Context, Hono } from "hono";
import { getCookie } from "hono/cookie";
import { serviceError } from "../../errors/translation_errors.ts";
import {
  SESSION_COOKIE,
  sessionCookie,
  type SettingsSessions,
} from "../../middleware/settings_session.ts";
import { LinkRequestSchema } from "../../schemas/settings_page.ts";
import { CONFIG_FILE_NOTE, settingsLinkCommand } from "../../settings/link_hint.ts";
import type { LinkRequestVerifier } from "../../settings/settings_link.ts";
import type { SettingsStore } from "../../settings/settings_store.ts";
import { validJson } from "./validated_request.ts";
import { tolkCommand } from "../../tolk_command.ts";

const WEB_DIR = new URL("../../web/settings/", import.meta.url);

/** The page's files, read once: name → [media type, contents]. */
const FILES: Record<string, [string, string]> = {
  "settings.js": ["text/javascript; charset=utf-8", ""],
  "engines.js": ["text/javascript; charset=utf-8", ""],
  "settings.css": ["text/css; charset=utf-8", ""],
  "index.html": ["text/html; charset=utf-8", ""],
  "no_session.html": ["text/html; charset=utf-8", ""],
};

/** Where `page.html`, the shell both HTML pages share (head, stylesheet), takes a page's body. */
const BODY_SLOT = /^ *<!-- the page's own body: .* -->\n/m;

/**
 * Where the page's files say how to run a tolk command (`%tolk% settings`): the way this
 * service was started (tolk_command.ts), so the page's hints run as written.
 */
const COMMAND_SLOT = /%tolk% /g;

function file(name: string): [string, string] {
  const entry = FILES[name];
  if (!entry[1]) {
    const text = name.endsWith(".html") ? htmlPage(name) : read(name);
    entry[1] = text.replace(COMMAND_SLOT, () => tolkCommand(""));
  }
  return entry;
}

/** An HTML page: the shared shell around the page's own body (`<name>_body.html`). */
function htmlPage(name: string): string {
  const body = read(name.replace(/\.html$/, "_body.html"));
  return read("page.html").replace(BODY_SLOT, () => body);
}

function read(name: string): string {
  return Deno.readTextFileSync(new URL(name, WEB_DIR));
}

/** What the page route needs. */
export interface SettingsPageDeps {
  settings: SettingsStore;
  sessions: SettingsSessions;
  links: LinkRequestVerifier;
  /** The service's `--config`/`--models-dir` where not the defaults, for the page's commands. */
  pathFlags: Record<string, string>;
}

/** The paragraph explaining `FILE`, dropped when the command has none. */
const CONFIG_NOTE_SLOT = /^ *<p [^>]*id="config-file">%config_file_note%<\/p>\n/m;

/**
 * An HTML page with the commands that act on this service (settings/link_hint.ts): without a
 * session, `FILE` and a note saying what it is; the session's page names the paths.
 */
function htmlWithCommands(
  c: Context,
  { open, pathFlags }: { open: boolean; pathFlags: Record<string, string> },
): Response {
  const config = pathFlags.config === undefined ? null : open ? pathFlags.config : "FILE";
  const commands: Record<string, string> = {
    "%settings_command%": settingsLinkCommand(c.req.header("host"), { config }),
    "%models_pull_command%": tolkCommand("models pull ORG/NAME", pathFlags),
    "%token_show_command%": tolkCommand("token show", config === null ? {} : { config }),
  };
  const name = open ? "index.html" : "no_session.html";
  const html = file(name)[1]
    .replace(/%[a-z_]+_command%/g, (slot) => escapeHtml(commands[slot] ?? slot))
    .replace(
      CONFIG_NOTE_SLOT,
      (note) =>
        config === "FILE"
          ? note.replace("%config_file_note%", () => escapeHtml(CONFIG_FILE_NOTE))
          : "",
    );
  const response = c.body(html, open ? 200 : 401);
  response.headers.set("Content-Type", FILES[name][0]);
  return response;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The settings page sub-app, mounted at `/settings`. */
export function settingsPageRoute(deps: SettingsPageDeps) {
  const { pathFlags } = deps;
  return new Hono()
    .get("/", (c) => {
      const code = c.req.query("code");
      if (code !== undefined) {
        const session = deps.sessions.redeem(code);
        if (!session) return htmlWithCommands(c, { pathFlags, open: false });
        c.header("Set-Cookie", sessionCookie(session, deps.sessions.sessionTtlMs));
        // Redirect so the spent code leaves the address bar and the history entry.
        return c.redirect("/settings", 303);
      }
      const open = deps.sessions.isOpen(getCookie(c, SESSION_COOKIE));
      return htmlWithCommands(c, { pathFlags, open });
    })
    .get("/settings.js", (c) => page(c, "settings.js"))
    .get("/engines.js", (c) => page(c, "engines.js"))
    .get("/settings.css", (c) => page(c, "settings.css"))
    .post("/link", validJson(LinkRequestSchema), (c) => {
      // `tolk settings` never sends Origin; a browser always does on a POST.
      if (c.req.header("origin") !== undefined) {
        throw serviceError("origin_not_allowed", "links are issued to `tolk settings` only");
      }
      const { link_key } = deps.settings.current().settings_page;
      if (!deps.links.verify(c.req.valid("json"), link_key)) {
        throw serviceError(
          "unauthorized",
          "the link request is not signed with this service's settings file (another --config?) or is stale",
        );
      }
      const { code, expiresAt } = deps.sessions.issueCode();
      return c.json({ code, expires_at: Math.floor(expiresAt / 1000) });
    });
}

function page(c: Context, name: string): Response {
  const [type, text] = file(name);
  const response = c.body(text, 200);
  response.headers.set("Content-Type", type);
  return response;
}
