/**
 * `tolk models list|pull [ID] [--models-dir DIR] [--dtype DTYPE] [--config FILE]`: the models the
 * built-in engine can load, and downloads from the hub (`HF_ENDPOINT`, default
 * https://huggingface.co) with a progress bar on stderr. `pull` without an id pulls the settings'
 * default model.
 */
import { z } from "zod";
import {
  configFlag,
  defaultModelsDir,
  modelsDirFlag,
  modelsDirRefusal,
  pathFlagsForHint,
  pathFlagsFromEnvironment,
} from "./config_paths.ts";
import { environment } from "../settings/environment.ts";
import { SettingsFileError, SettingsStore } from "../settings/settings_store.ts";
import { didYouMean } from "./closest_name.ts";
import { type CommandUsage, FlagError, parseFlags } from "./flags.ts";
import { HUB_NET_PERMISSION } from "./permissions.ts";
import { printLine } from "./stdout_lines.ts";
import { PullError, pullModel, type PullProgress } from "../models/hub_download.ts";
import { DTYPE_SUFFIXES, isModelId, listInstalledModels } from "../models/model_store.ts";
import { tolkCommand } from "../tolk_command.ts";

const FlagsSchema = z.object({
  "models-dir": modelsDirFlag,
  config: configFlag.describe("the settings file whose default model `pull` takes without an id"),
  dtype: z.enum(Object.keys(DTYPE_SUFFIXES) as [string, ...string[]]).optional()
    .describe(
      `pull: weights precision (${
        Object.keys(DTYPE_SUFFIXES).join(", ")
      }; default: the best available)`,
    ),
});

/** `tolk models` in the help text. */
export const usage: CommandUsage = {
  name: "models",
  positionals: "list|pull [ORG/NAME]",
  summary: "list installed models, or download one (default: the settings' model) from the hub",
  flags: FlagsSchema,
  environment: ["TOLK_MODELS_DIR", "TOLK_CONFIG", "HF_ENDPOINT"],
};

/** Runs `tolk models`. */
export async function run(args: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(args, FlagsSchema, {
    env: pathFlagsFromEnvironment(),
  });
  const [action, ...rest] = positionals;
  const modelsDir = flags["models-dir"] ?? defaultModelsDir();
  if (action === "list") {
    if (rest.length) throw new FlagError("", `unexpected argument "${rest[0]}"`);
    if (flags.dtype) throw new FlagError("--dtype", "only applies to pull");
    return await list(modelsDir);
  }
  if (action === "pull") {
    const [named, ...extra] = rest;
    const id = named ?? defaultModel(flags.config);
    if (id === undefined) return 2;
    if (extra.length) throw new FlagError("", `unexpected argument "${extra[0]}"`);
    if (!isModelId(id)) throw new FlagError("", `"${id}" is not a model id (org/name)`);
    return await pull(id, modelsDir, flags.dtype);
  }
  throw new FlagError("", `expected list or pull ID${didYouMean(action, ["list", "pull"])}`);
}

/** The settings' default built-in model, or undefined after saying why it cannot be read. */
function defaultModel(configPath: string): string | undefined {
  try {
    return new SettingsStore(configPath).read().engines["local-llm"].model;
  } catch (error) {
    if (!(error instanceof SettingsFileError)) throw error;
    console.error(error.message);
    return undefined;
  }
}

async function list(modelsDir: string): Promise<number> {
  const unreadable = await modelsDirRefusal("models", modelsDir);
  if (unreadable !== null) {
    console.error(unreadable);
    return 2;
  }
  const models = await listInstalledModels(modelsDir);
  if (models.length === 0) {
    const pull = tolkCommand("models pull ORG/NAME", pathFlagsForHint({ modelsDir }));
    console.error(`no models in ${modelsDir} (get one: ${pull})`);
    return 0;
  }
  const width = Math.max(...models.map((model) => model.id.length));
  for (const model of models) {
    const state = model.valid ? "ready" : `incomplete: ${model.problems.join(", ")}`;
    const dtypes = model.dtypes.join(",") || "-";
    printLine(
      `${model.id.padEnd(width)}  ${dtypes.padEnd(10)}  ${megabytes(model.sizeBytes)}  ${state}`,
    );
  }
  return 0;
}

async function pull(id: string, modelsDir: string, dtype: string | undefined): Promise<number> {
  const bar = progressBar();
  const endpoint = environment().HF_ENDPOINT;
  try {
    const result = await pullModel(id, {
      modelsDir,
      dtype,
      endpoint,
      onProgress: bar.update,
    });
    bar.end();
    printLine(
      `installed ${id} (${result.dtype}, ${result.files.length} files) in ${result.path}`,
    );
    return 0;
  } catch (error) {
    bar.end();
    if (!(error instanceof PullError)) throw error;
    if (endpoint && error.cause instanceof Deno.errors.NotCapable && !mayReach(endpoint)) {
      // The `tolk` task and the binary grant the hub's own hosts only (README, Models).
      const host = new URL(endpoint).hostname;
      console.error(
        `tolk models: HF_ENDPOINT ${endpoint} is outside the hosts \`deno task tolk\` and the ` +
          `binary may reach (${HUB_NET_PERMISSION.join(", ")} and loopback): run main.ts with ` +
          `--allow-net=${host} (README, Models)`,
      );
      return 2;
    }
    console.error(`tolk models: ${error.message}`);
    return 1;
  }
}

/** True when this process may connect to the hub at `endpoint` (a redirect may still be refused). */
function mayReach(endpoint: string): boolean {
  return Deno.permissions.querySync({ name: "net", host: new URL(endpoint).host }).state ===
    "granted";
}

/** A progress bar redrawn in place on a terminal, or one line per file otherwise. */
function progressBar() {
  const terminal = Deno.stderr.isTerminal();
  const encoder = new TextEncoder();
  let lastFile = "";
  let lastDraw = 0;
  let drawn = false;
  const write = (text: string) => Deno.stderr.writeSync(encoder.encode(text));
  return {
    update(progress: PullProgress) {
      if (!terminal) {
        if (progress.file !== lastFile) write(`downloading ${progress.file}\n`);
        lastFile = progress.file;
        return;
      }
      const now = Date.now();
      if (now - lastDraw < 100 && progress.received < progress.total) return;
      lastDraw = now;
      drawn = true;
      const ratio = progress.total > 0 ? progress.received / progress.total : 1;
      const filled = Math.round(ratio * 30);
      write(
        `\r\x1b[2K[${"#".repeat(filled)}${"-".repeat(30 - filled)}] ${
          (ratio * 100).toFixed(0).padStart(3)
        }% ${megabytes(progress.received)} / ${megabytes(progress.total)}  ${progress.file}`,
      );
    },
    end() {
      if (drawn) write("\n");
      drawn = false;
    },
  };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
