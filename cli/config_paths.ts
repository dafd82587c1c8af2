/**
 * Where tolk keeps its files and listens, and the flags shared by the commands that use them.
 */
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { environment } from "../settings/environment.ts";
import { modelsDirProblem } from "../models/model_store.ts";
import { fileInTheWay } from "../storage/folder_in_the_way.ts";

/** The path flags' fallbacks from the environment (a flag on the command line wins). */
export function pathFlagsFromEnvironment(): Record<string, string | undefined> {
  const env = environment();
  return {
    config: env.TOLK_CONFIG,
    "data-dir": env.TOLK_DATA_DIR,
    "models-dir": env.TOLK_MODELS_DIR,
  };
}

/**
 * The user's home: `HOME`, else the account's home from the system. Not the working folder:
 * through `deno task` that is the checkout, where an unset HOME once put the settings file.
 */
function home(): string {
  return environment().HOME ?? homedir();
}

/**
 * An XDG base folder, `fallback` when unset or relative: the XDG spec says a relative value is
 * invalid and ignored (read from the working folder, it put the settings into the checkout).
 */
function xdgBase(value: string | undefined, fallback: string): string {
  return value !== undefined && isAbsolute(value) ? value : fallback;
}

/** `$XDG_CONFIG_HOME/tolk/settings.json` (default `~/.config/tolk/settings.json`). */
export function defaultConfigPath(): string {
  const base = xdgBase(environment().XDG_CONFIG_HOME, join(home(), ".config"));
  return join(base, "tolk", "settings.json");
}

/** `$XDG_DATA_HOME/tolk` (default `~/.local/share/tolk`): history and models. */
export function defaultDataDir(): string {
  return join(xdgBase(environment().XDG_DATA_HOME, join(home(), ".local", "share")), "tolk");
}

/**
 * The models directory when `--models-dir`/`TOLK_MODELS_DIR` name none: `models/` in the data
 * directory (`TOLK_DATA_DIR` or the default).
 */
export function defaultModelsDir(
  dataDir = environment().TOLK_DATA_DIR ?? defaultDataDir(),
): string {
  return join(dataDir, "models");
}

/**
 * The path flags a hinted command (`enable it with …`, `get it with …`) needs to act on these
 * files: each one that is not where the command finds its file with no flag and no `TOLK_*`
 * variable (the shell the hint is pasted into may not have the variable that named it).
 */
export function pathFlagsForHint(
  paths: { config?: string; modelsDir?: string },
): Record<string, string> {
  const flags: Record<string, string> = {};
  if (paths.config !== undefined && paths.config !== defaultConfigPath()) {
    flags.config = paths.config;
  }
  if (paths.modelsDir !== undefined && paths.modelsDir !== defaultModelsDir(defaultDataDir())) {
    flags["models-dir"] = paths.modelsDir;
  }
  return flags;
}

/** The checkout this code runs from (`deno task` runs its commands there). */
const CHECKOUT = resolve(fileURLToPath(new URL("..", import.meta.url)));

/**
 * Where relative path flags are read from: the folder the user ran `deno task tolk …` in
 * (`INIT_CWD`), since the task runs its command in the checkout; otherwise the working folder.
 * Only a process that runs from a checkout, in that checkout, takes `INIT_CWD`: the compiled
 * binary, or a script that `cd`s before starting tolk, inherits an npm or task `INIT_CWD` that
 * says nothing about its own arguments.
 */
function invocationFolder(): string {
  const started = environment().INIT_CWD;
  if (Deno.build.standalone || started === undefined) return Deno.cwd();
  return Deno.cwd() === CHECKOUT ? started : Deno.cwd();
}

/**
 * A path flag's value as an absolute path: `~` and `~/…` in the home, another relative one read
 * from {@link invocationFolder}.
 */
function fromInvocation(path: string): string {
  // A shell leaves the `~` of `--config=~/x` (and of a quoted or `.env` value) as it is: read
  // as a folder name, it made a folder `~` where the user stood.
  if (path === "~" || path.startsWith("~/")) return join(home(), path.slice(1));
  return isAbsolute(path) ? path : resolve(invocationFolder(), path);
}

/**
 * A path flag: non-empty (else `required`, when given, is the message), made absolute as the
 * user meant it ({@link fromInvocation}).
 */
export function pathFlag(required?: string) {
  return z.string(required ? { error: required } : undefined).min(1, required)
    .transform(fromInvocation);
}

/**
 * The `--config FILE` flag: the flag, else `TOLK_CONFIG` ({@link pathFlagsFromEnvironment}), else
 * {@link defaultConfigPath}, resolved in the parse so no command states the default again.
 */
export const configFlag = pathFlag().optional()
  .transform((path) => path ?? defaultConfigPath())
  .describe("the settings file (default ~/.config/tolk/settings.json)");

/** The `--data-dir DIR` flag: the flag, else `TOLK_DATA_DIR`, else {@link defaultDataDir}. */
export const dataDirFlag = pathFlag().optional()
  .transform((path) => path ?? defaultDataDir())
  .describe("history and other data (default ~/.local/share/tolk)");

/** The `--models-dir DIR` flag. */
export const modelsDirFlag = pathFlag().optional()
  .describe("built-in models, <org>/<name>/ (default <data dir>/models)");

/**
 * The one stderr line of `tolk <command>` when its models folder cannot be read (a file, or a
 * folder the OS or the sandbox refuses), or null when it can or does not exist yet.
 */
export async function modelsDirRefusal(command: string, modelsDir: string): Promise<string | null> {
  const problem = await modelsDirProblem(modelsDir);
  if (problem === null) return null;
  return `tolk ${command}: cannot read the models directory ${modelsDir}: ${problem}; ` +
    "pick a readable one with --models-dir or TOLK_MODELS_DIR";
}

/**
 * The one stderr line of `tolk <command>` when its data folder is a file (or under one), or one
 * the sandbox does not let it `use` (read, or read and write), or null when neither: the commands
 * that open the data say this before trying.
 */
export async function dataDirRefusal(
  command: string,
  dataDir: string,
  use: "read" | "write" = "read",
): Promise<string | null> {
  // Else mkdir's or SQLite's words about the database file inside it.
  const problem = await fileInTheWay(dataDir) ?? sandboxRefusal(dataDir, use);
  if (problem === null) return null;
  return `tolk ${command}: cannot use the data directory ${dataDir}: ${problem}; ` +
    "pick a directory with --data-dir or TOLK_DATA_DIR";
}

/**
 * Deno's own words when its sandbox does not grant `use` of `path` (a folder outside `deno task
 * start`'s grant), else null. Asked before anything is opened: the models folder inside the data
 * folder would otherwise be the one refused, and its line would point at `--models-dir`.
 */
function sandboxRefusal(path: string, use: "read" | "write"): string | null {
  for (const name of use === "write" ? ["read", "write"] as const : ["read"] as const) {
    if (Deno.permissions.querySync({ name, path }).state !== "granted") {
      return `Requires ${name} access to "${path}", run again with the --allow-${name} flag`;
    }
  }
  return null;
}
