/**
 * Where tolk keeps its files, and the flags shared by the commands that use them.
 */
import { join } from "node:path";
import { z } from "zod";

/** Environment variables that stand in for the path flags (a flag wins). */
export const PATH_ENV = {
  config: "TOLK_CONFIG",
  "data-dir": "TOLK_DATA_DIR",
  "models-dir": "TOLK_MODELS_DIR",
} as const;

function home(): string {
  return Deno.env.get("HOME") ?? Deno.cwd();
}

/** `$XDG_CONFIG_HOME/tolk/settings.json` (default `~/.config/tolk/settings.json`). */
export function defaultConfigPath(): string {
  const base = Deno.env.get("XDG_CONFIG_HOME") || join(home(), ".config");
  return join(base, "tolk", "settings.json");
}

/** `$XDG_DATA_HOME/tolk` (default `~/.local/share/tolk`): history and models. */
export function defaultDataDir(): string {
  const base = Deno.env.get("XDG_DATA_HOME") || join(home(), ".local", "share");
  return join(base, "tolk");
}

/**
 * The models directory when `--models-dir`/`TOLK_MODELS_DIR` name none: `models/` in the data
 * directory (`TOLK_DATA_DIR` or the default).
 */
export function defaultModelsDir(
  dataDir = Deno.env.get("TOLK_DATA_DIR") || defaultDataDir(),
): string {
  return join(dataDir, "models");
}

/** The `--config FILE` flag schema. */
export const configFlag = z.string().min(1).optional();
