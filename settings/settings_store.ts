/**
 * The settings file: read with validation, written atomically with mode 0600, re-read when it
 * changes on disk so `tolk token revoke` takes effect on a running server's next request.
 */
import { basename, dirname, join } from "node:path";
import { type Settings, SettingsSchema } from "../schemas/settings.ts";
import type { z } from "zod";
import { boundMessage } from "../errors/contract_error.ts";
import { unknownKeys } from "./settings_keys.ts";

/** The settings file cannot be used; the message names its path and why. */
export class SettingsFileError extends Error {
  override name = "SettingsFileError";
  /**
   * @param field dotted path of the refused value (`engines.engine-one.base_url`), when one is.
   */
  constructor(readonly path: string, readonly reason: string, readonly field?: string) {
    super(`settings file ${path}: ${reason}`);
  }
}

/** Makes a fresh API token: 32 random bytes, base64url (a valid WebSocket subprotocol token). */
export function generateToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

type RawSettings = Record<string, unknown>;

/** One settings file. */
export class SettingsStore {
  #cached?: { settings: Settings; stamp: string | null };
  readonly #listeners: ((settings: Settings) => void)[] = [];

  constructor(readonly path: string) {}

  /** Calls `listener` with each new version of the file that {@link current} reads. */
  onChange(listener: (settings: Settings) => void): void {
    this.#listeners.push(listener);
  }

  /**
   * Reads and validates the file; a missing file gives the defaults (nothing is written).
   *
   * @throws {SettingsFileError} when the file is not JSON or a value is refused.
   */
  read(): Settings {
    return this.#validate(this.#readRaw() ?? {});
  }

  /**
   * Like {@link read}, but creates the file with the defaults (API off) when it is missing.
   *
   * @throws {SettingsFileError} as {@link read}, or when the file cannot be written.
   */
  ensure(): { settings: Settings; created: boolean } {
    const raw = this.#readRaw();
    if (raw !== undefined) return { settings: this.#validate(raw), created: false };
    const settings = this.#validate({});
    this.#write(settings as RawSettings);
    return { settings, created: true };
  }

  /**
   * Applies `change` to the file's JSON (unknown keys kept), validates and writes it atomically.
   * A missing file starts from the defaults, unless it went away under a running service: then
   * from the settings that service is using, said once in its log.
   *
   * @throws {SettingsFileError} when the file is corrupt or the result is refused.
   */
  update(change: (settings: Settings) => void): Settings {
    const raw = this.#readRaw();
    // The defaults would turn the API off and drop the token and link key under a change that
    // meant none of that (a page edit after an editor's delete-then-write, a moved file).
    const inUse = raw === undefined ? this.#cached?.settings : undefined;
    const settings = this.#validate(raw ?? inUse ?? {});
    change(settings);
    const checked = this.#validate(settings as RawSettings);
    this.#write(checked as RawSettings);
    if (inUse) {
      console.error(`settings file ${this.path} was gone; recreated it from the settings in use`);
    }
    return checked;
  }

  /**
   * The current settings for a running server: re-read only when the file's mtime or size
   * changed; a file that turns bad or goes away while running keeps the last good settings.
   *
   * @throws {SettingsFileError} on the first call when the file is bad.
   */
  current(): Settings {
    const stamp = this.#stamp();
    const cached = this.#cached;
    if (cached && cached.stamp === stamp) return cached.settings;
    if (cached && stamp === null) {
      // Gone while running (moved, or an editor's save between delete and write): the defaults
      // would turn the API off and reload every engine; the last settings stay until it is back.
      console.error(`${this.path} is gone; keeping the previous settings until it is back`);
      this.#cached = { ...cached, stamp };
      return cached.settings;
    }
    try {
      const raw = this.#readRaw() ?? {};
      const settings = this.#validate(raw);
      const unknown = unknownKeys(raw, SettingsSchema);
      if (unknown.length > 0) {
        console.error(
          `settings file ${this.path}: unknown keys, kept but not read: ${unknown.join(", ")}`,
        );
      }
      const first = !cached;
      this.#cached = { settings, stamp };
      if (!first) { for (const listener of this.#listeners) listener(settings); }
      return settings;
    } catch (error) {
      if (!cached) throw error;
      console.error(`${(error as Error).message}; keeping the previous settings`);
      this.#cached = { ...cached, stamp };
      return cached.settings;
    }
  }

  /**
   * Whether the file is there. False too when the sandbox may not look (a `TOLK_CONFIG` outside
   * `deno task start`'s grant), where `node:fs`'s `existsSync` throws `NotCapable`: the read
   * that follows says why, as a {@link SettingsFileError}.
   */
  exists(): boolean {
    return this.#stamp() !== null;
  }

  /** Identity of the file's current version: every atomic write makes a new inode. */
  #stamp(): string | null {
    try {
      const info = Deno.statSync(this.path);
      return `${info.ino}:${info.mtime?.getTime()}:${info.size}`;
    } catch {
      return null;
    }
  }

  #readRaw(): RawSettings | undefined {
    let text: string;
    try {
      text = Deno.readTextFileSync(this.path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      if (error instanceof Deno.errors.IsADirectory) {
        throw new SettingsFileError(this.path, `is a directory, not a file; ${NAME_ANOTHER}`);
      }
      throw new SettingsFileError(
        this.path,
        `cannot be read (${osReason(error)}); ${NAME_ANOTHER}`,
      );
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new SettingsFileError(this.path, "is not valid JSON; fix or remove it");
    }
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw new SettingsFileError(this.path, "must hold one JSON object");
    }
    return raw as RawSettings;
  }

  #validate(raw: RawSettings): Settings {
    const parsed = SettingsSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const field = issue.path.join(".");
    throw new SettingsFileError(
      this.path,
      `${field || "(root)"} ${issueWords(issue)}`,
      field || undefined,
    );
  }

  #write(settings: RawSettings): void {
    const text = JSON.stringify(settings, null, 2) + "\n";
    const file = fileBehind(this.path);
    try {
      try {
        replaceAtomically(file, text);
      } catch (error) {
        // Narrow permissions (the settings folder only) cannot write beside a link's target.
        if (file === this.path || !refusedByPermissions(error)) throw error;
        replaceAtomically(this.path, text);
        console.error(
          `settings file ${this.path} is a link to ${file}, which may not be written; ` +
            `replaced the link with a file (${file} still holds the previous settings)`,
        );
      }
    } catch (error) {
      throw new SettingsFileError(
        this.path,
        `cannot be written (${osReason(error)}); name a writable one with --config or TOLK_CONFIG`,
      );
    }
    this.#cached = undefined;
  }
}

/**
 * The file holding the settings: a symbolic link's target (a dotfiles folder). Renaming over the
 * link replaced it and left the previous settings, a rotated token among them, in the target.
 */
/**
 * What a refused value must be, in words a user editing the file acts on: zod's own ("Too small:
 * expected string to have >=32 characters", "Invalid input: expected boolean, received string")
 * for its built-in checks, the schema's message for the rest.
 */
function issueWords(issue: z.core.$ZodIssue): string {
  const bound = boundMessage(issue);
  if (bound) return bound;
  if (issue.code === "invalid_value") {
    return `must be one of ${issue.values.map(String).join(", ")}`;
  }
  const received = issue.code === "invalid_type" && /received (\w+)$/.exec(issue.message)?.[1];
  if (!received) return issue.message;
  const kind = (name: string) =>
    name === "null" || name === "undefined"
      ? name
      : `${/^[aeiou]/.test(name) ? "an" : "a"} ${name}`;
  return `must be ${kind(issue.expected)}, not ${kind(received)}`;
}

function fileBehind(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path; // Not there yet (or a dangling link): written where it was named.
  }
}

/**
 * Writes `text` to a temporary file beside `path` (mode 0600) and renames it over `path`.
 *
 * @throws the file system's error, with the temporary file removed.
 */
function replaceAtomically(path: string, text: string): void {
  const temp = `${path}.${Deno.pid}.${crypto.randomUUID()}.tmp`;
  try {
    Deno.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    Deno.writeTextFileSync(temp, text, { mode: 0o600 });
    Deno.chmodSync(temp, 0o600); // the mode option is filtered by the umask
    Deno.renameSync(temp, path);
  } catch (error) {
    // A write cut short (a full disk) left the first pages, the token among them, in a file
    // the user never asked for and would not know to delete.
    removeIfThere(temp);
    throw error;
  }
  removeStaleTemporaries(path);
}

/** How old a temporary settings file is when no write can still be at work on it. */
const STALE_TEMPORARY_MS = 60_000;

/**
 * Removes the temporary files of `path` that a write killed before its rename left (a kill, a
 * power cut): each holds a token, perhaps one since rotated. A write takes milliseconds, so one
 * a minute old is no other process's write at work.
 */
function removeStaleTemporaries(path: string): void {
  const name = basename(path);
  const temporary = new RegExp(`^${RegExp.escape(name)}\\.\\d+\\.[0-9a-f-]{36}\\.tmp$`);
  try {
    for (const entry of Deno.readDirSync(dirname(path))) {
      if (!entry.isFile || !temporary.test(entry.name)) continue;
      const file = join(dirname(path), entry.name);
      const modified = Deno.statSync(file).mtime?.getTime() ?? Date.now();
      if (Date.now() - modified > STALE_TEMPORARY_MS) removeIfThere(file);
    }
  } catch {
    // The folder cannot be listed (permissions): the settings were written all the same.
  }
}

function refusedByPermissions(error: unknown): boolean {
  return error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied;
}

function removeIfThere(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // Never made (the folder could not be), or gone: nothing is left either way.
  }
}

/** The remedy of a settings path that cannot be used: the user names it (DECISIONS.md). */
const NAME_ANOTHER = "name a settings file with --config or TOLK_CONFIG";

/**
 * The system's reason without Deno's `: writefile '<path>'` tail: the path is said already, and
 * a write names the temporary file beside it, which the user never asked for.
 */
function osReason(error: unknown): string {
  return (error as Error).message.replace(/: \w+ '[^']*'$/, "");
}
