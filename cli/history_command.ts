/**
 * `tolk history list|clear|export [--data-dir DIR]`: the translation history on this machine.
 *
 * `list` prints one line per row (newest first, `--limit`, `--q`); `export` writes every row as
 * one JSON object per line (JSON Lines) to stdout; both open the database read-only. `clear`
 * deletes every row. None of them creates a data directory or a database.
 */
import { z } from "zod";
import { openDataStores } from "../storage/data_stores.ts";
import { DATABASE_FILE, StorageError } from "../storage/database.ts";
import type { HistoryEntry } from "../storage/history_store.ts";
import { dataDirFlag, dataDirRefusal, pathFlagsFromEnvironment } from "./config_paths.ts";
import { type CommandUsage, FlagError, integerFlag, parseCommand } from "./flags.ts";
import { writeLines } from "./stdout_lines.ts";

const FlagsSchema = z.object({
  "data-dir": dataDirFlag,
  limit: integerFlag(1, 10_000).default(20)
    .describe("list: most rows shown, newest first (1..10000)"),
  q: z.string().min(1).optional()
    .describe("list: only rows whose texts or translations contain TEXT (ASCII case-insensitive)"),
});

/** The flags only `list` reads. */
const LIST_FLAGS = ["--limit", "--q"];

/** `tolk history` in the help text. */
export const usage = {
  name: "history",
  actions: ["list", "clear", "export"] as const,
  summary: "the translation history on this machine (export: JSON Lines on stdout)",
  flags: FlagsSchema,
  environment: ["TOLK_DATA_DIR"],
} satisfies CommandUsage;

/** Runs `tolk history`. */
export async function run(args: string[]): Promise<number> {
  const { flags, action } = parseCommand(args, usage, { env: pathFlagsFromEnvironment() });
  // `clear --q secret` reads as "clear the rows that hold secret": taking it silently would empty
  // the whole history. (`--limit` has a default, so the command line says whether it was given.)
  const listOnly = LIST_FLAGS.find((flag) =>
    args.some((arg) => arg === flag || arg.startsWith(`${flag}=`))
  );
  if (action !== "list" && listOnly) throw new FlagError(listOnly, "only applies to list");
  const dataDir = flags["data-dir"];
  const refusal = await dataDirRefusal("history", dataDir);
  if (refusal !== null) {
    console.error(refusal);
    return 2;
  }
  let stores;
  try {
    // list and export only read: a read-only copy works, and nothing is created or migrated.
    // clear writes, but makes no database to empty when there is none.
    stores = openDataStores(dataDir, action === "clear" ? { mustExist: true } : { access: "read" });
  } catch (error) {
    if (!(error instanceof StorageError)) throw error;
    return reportOpenFailure(error, action, dataDir);
  }
  try {
    const { history } = stores;
    if (action === "clear") {
      console.error(`cleared ${history.clear()} history rows`);
    } else if (action === "export") {
      writeLines(history.all().map(jsonLine));
    } else {
      writeLines(history.rows({ most: flags.limit, q: flags.q }).map(listLine));
    }
    return 0;
  } catch (error) {
    // An OutputError (stdout on a full disk) is said by main.ts, as for every command.
    if (!(error instanceof StorageError)) throw error;
    console.error(`tolk history: ${error.message}`);
    return 1;
  } finally {
    stores.close();
  }
}

/**
 * One stderr line for a database that cannot be opened, and the exit code: 1 when there is no
 * history there (nothing to show, as `tolk settings` without a settings file), 2 when the data
 * directory cannot be used as asked (as `tolk serve` on a read-only one).
 */
function reportOpenFailure(error: StorageError, action: string, dataDir: string): number {
  if (error.failure === "missing") {
    console.error(`tolk history: no history at ${dataDir} (no ${DATABASE_FILE} there)`);
    return 1;
  }
  if (action === "clear" && error.failure === "read_only") {
    console.error(
      `tolk history clear: cannot clear the history in ${dataDir}: clearing needs write access ` +
        `and ${error.message}; list and export only read it`,
    );
    return 2;
  }
  console.error(`tolk history: cannot use the data directory ${dataDir}: ${error.message}`);
  return 2;
}

/**
 * One JSON Lines row. JSON allows U+2028, U+2029 and U+0085 unescaped, but Python's
 * `str.splitlines()`, editors and log viewers break lines there: escaped, a row is one line for
 * every reader, and `JSON.parse` gives back the same text.
 */
function jsonLine(entry: HistoryEntry): string {
  return JSON.stringify(entry).replace(
    /[\u0085\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * Control characters (an escape sequence could drive the terminal) and bidirectional controls
 * (U+202E would show "photo\u202Egpj.exe" as "photoexe.jpg": Trojan Source, CVE-2021-42574).
 */
const UNSHOWABLE = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/**
 * `<ISO time>  <id>  <source>→<target>  <engine>  <first text, one line, ≤ 60 chars>`. The text
 * is whatever a client sent (a web page's, through a browser extension): its {@link UNSHOWABLE}
 * characters are shown as U+FFFD, so it can neither drive nor reorder the terminal's line.
 */
function listLine(entry: HistoryEntry): string {
  const first = entry.texts[0]?.replace(/\s+/g, " ").replace(UNSHOWABLE, "\uFFFD") ?? "";
  const shown = [...first].length > 60 ? `${[...first].slice(0, 59).join("")}…` : first;
  const more = entry.texts.length > 1 ? ` (+${entry.texts.length - 1})` : "";
  const time = new Date(entry.created * 1000).toISOString().replace(".000Z", "Z");
  return `${time}  ${entry.id}  ${entry.source}→${entry.target}  ${entry.engine}  ${shown}${more}`;
}
