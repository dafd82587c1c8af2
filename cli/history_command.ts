/**
 * `tolk history list|clear|export [--data-dir DIR]`: the translation history on this machine.
 *
 * `list` prints one line per row (newest first, `--limit`, `--q`); `export` writes every row as
 * one JSON object per line (JSON Lines) to stdout; `clear` deletes every row.
 */
import { z } from "zod";
import { openDataStores } from "../storage/data_stores.ts";
import { StorageError } from "../storage/database.ts";
import type { HistoryEntry } from "../storage/history_store.ts";
import { dataDirFlag, pathFlagsFromEnvironment } from "./config_paths.ts";
import { type CommandUsage, parseCommand } from "./flags.ts";

const FlagsSchema = z.object({
  "data-dir": dataDirFlag,
  limit: z.coerce.number().int().min(1).max(10_000).default(20)
    .describe("list: most rows shown, newest first (1..10000)"),
  q: z.string().min(1).optional().describe("list: only rows whose texts contain this"),
});

/** `tolk history` in the help text. */
export const usage = {
  name: "history",
  actions: ["list", "clear", "export"] as const,
  summary: "the translation history on this machine (export: JSON Lines on stdout)",
  flags: FlagsSchema,
  environment: ["TOLK_DATA_DIR"],
} satisfies CommandUsage;

/** Runs `tolk history`. */
export function run(args: string[]): Promise<number> {
  const { flags, action } = parseCommand(args, usage, { env: pathFlagsFromEnvironment() });
  const dataDir = flags["data-dir"];
  let stores;
  try {
    stores = openDataStores(dataDir);
  } catch (error) {
    if (!(error instanceof StorageError)) throw error;
    console.error(`tolk history: cannot use the data directory ${dataDir}: ${error.message}`);
    return Promise.resolve(2);
  }
  try {
    const { history } = stores;
    if (action === "clear") {
      console.error(`cleared ${history.clear()} history rows`);
    } else if (action === "export") {
      for (const entry of history.all()) console.log(JSON.stringify(entry));
    } else {
      for (const entry of history.list({ limit: flags.limit, q: flags.q }).entries) {
        console.log(listLine(entry));
      }
    }
    return Promise.resolve(0);
  } catch (error) {
    if (!(error instanceof StorageError)) throw error;
    console.error(`tolk history: ${error.message}`);
    return Promise.resolve(1);
  } finally {
    stores.close();
  }
}

/** `<ISO time>  <id>  <source>→<target>  <engine>  <first text, one line, ≤ 60 chars>` */
function listLine(entry: HistoryEntry): string {
  const first = entry.texts[0]?.replace(/\s+/g, " ") ?? "";
  const shown = [...first].length > 60 ? `${[...first].slice(0, 59).join("")}…` : first;
  const more = entry.texts.length > 1 ? ` (+${entry.texts.length - 1})` : "";
  const time = new Date(entry.created * 1000).toISOString().replace(".000Z", "Z");
  return `${time}  ${entry.id}  ${entry.source}→${entry.target}  ${entry.engine}  ${shown}${more}`;
}
