/**
 * How the user runs a tolk command, for every hint that says what to run: `tolk …` from the
 * compiled binary, `deno task tolk …` from a checkout (the README's way). A hint saying plain
 * `tolk api enable` sent a README reader to "command not found".
 */

import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { environment, EnvironmentError } from "./settings/environment.ts";

/** The checkout this code runs from, where `deno task` runs its commands. */
const CHECKOUT = dirname(fileURLToPath(import.meta.url));

/**
 * `deno task tolk`, or, for a user who ran `deno task --config <checkout>/deno.json tolk …` in
 * another folder (`INIT_CWD`, as config_paths.ts reads relative flags), that form: plain
 * `deno task tolk` finds no deno.json there.
 */
function taskCommand(): string {
  let started;
  try {
    started = environment().INIT_CWD;
  } catch (error) {
    // Said by the command itself (one line, exit 2).
    if (error instanceof EnvironmentError) return "deno task tolk";
    throw error;
  }
  if (started === undefined || started === CHECKOUT || Deno.cwd() !== CHECKOUT) {
    return "deno task tolk";
  }
  return `deno task --config ${shellWord(`${CHECKOUT}/deno.json`)} tolk`;
}

/**
 * The command line that runs `tolk <args>` the way this process was started, with `flags`
 * (`{ config: "/x/settings.json" }` → `--config /x/settings.json`) quoted for a POSIX shell, so
 * the hint acts on the same files as the command that prints it.
 *
 * @example
 * ```ts
 * tolkCommand("api enable", { config: "/tmp/my settings.json" });
 * // deno task tolk api enable --config '/tmp/my settings.json'
 * ```
 */
export function tolkCommand(args: string, flags: Record<string, string> = {}): string {
  const written = Object.entries(flags).map(([name, value]) => ` --${name} ${shellWord(value)}`);
  return `${Deno.build.standalone ? "tolk" : taskCommand()} ${args}${written.join("")}`;
}

/** `value` as one POSIX shell word: as it is when it holds nothing a shell reads, else quoted. */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
