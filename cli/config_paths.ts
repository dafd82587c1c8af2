/**
 * Where tolk keeps its files and listens, and the flags shared by the commands that use them.
 */
import { join } from "node:path";
import { z } from "zod";
import { environment } from "../settings/environment.ts";

/** The port `tolk serve` listens on unless told otherwise, and where `tolk settings` looks. */
export const SERVE_PORT = 8765;

/** The path flags' fallbacks from the environment (a flag on the command line wins). */
export function pathFlagsFromEnvironment(): Record<string, string | undefined> {
  const env = environment();
  return {
    config: env.TOLK_CONFIG,
    "data-dir": env.TOLK_DATA_DIR,
    "models-dir": env.TOLK_MODELS_DIR,
  };
}

function home(): string {
  return environment().HOME ?? Deno.cwd();
}

/** `$XDG_CONFIG_HOME/tolk/settings.json` (default `~/.config/tolk/settings.json`). */
export function defaultConfigPath(): string {
  return join(environment().XDG_CONFIG_HOME ?? join(home(), ".config"), "tolk", "settings.json");
}

/** `$XDG_DATA_HOME/tolk` (default `~/.local/share/tolk`): history and models. */
export function defaultDataDir(): string {
  return join(environment().XDG_DATA_HOME ?? join(home(), ".local", "share"), "tolk");
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
 * The `--config FILE` flag: the flag, else `TOLK_CONFIG` ({@link pathFlagsFromEnvironment}), else
 * {@link defaultConfigPath}, resolved in the parse so no command states the default again.
 */
export const configFlag = z.string().min(1).optional()
  .transform((path) => path ?? defaultConfigPath())
  .describe("the settings file (default ~/.config/tolk/settings.json)");

/** The `--data-dir DIR` flag: the flag, else `TOLK_DATA_DIR`, else {@link defaultDataDir}. */
export const dataDirFlag = z.string().min(1).optional()
  .transform((path) => path ?? defaultDataDir())
  .describe("history and other data (default ~/.local/share/tolk)");

/** The `--models-dir DIR` flag. */
export const modelsDirFlag = z.string().min(1).optional()
  .describe("built-in models, <org>/<name>/ (default <data dir>/models)");
