/**
 * The models directory: `<models-dir>/<org>/<name>/` in the hub's own layout (config.json,
 * tokenizer files, `onnx/*.onnx`). Shared by the built-in engine and `tolk models`.
 */
import { join, resolve } from "node:path";
import { fileInTheWay } from "../storage/folder_in_the_way.ts";
import { tolkCommand } from "../tolk_command.ts";

/** ONNX file suffix of each dtype transformers.js knows (`encoder_model{suffix}.onnx`). */
export const DTYPE_SUFFIXES: Readonly<Record<string, string>> = {
  fp32: "",
  fp16: "_fp16",
  q8: "_quantized",
  int8: "_int8",
  uint8: "_uint8",
  q4: "_q4",
  q4f16: "_q4f16",
  bnb4: "_bnb4",
};

/** Which dtype the engine loads when several are installed: q8 first (fast on CPU, 4× smaller). */
export const DTYPE_PREFERENCE = ["q8", "fp32", "int8", "uint8", "fp16", "q4", "q4f16", "bnb4"];

/** The ONNX sessions a translation model needs, per dtype. */
export const SEQ2SEQ_SESSIONS = ["encoder_model", "decoder_model_merged"] as const;

/** Files every model needs besides its ONNX sessions. */
export const REQUIRED_FILES = ["config.json", "tokenizer.json", "tokenizer_config.json"] as const;

/** An installed model folder. */
export interface InstalledModel {
  /** `<org>/<name>`, the value of a request's `options.model`. */
  id: string;
  /** Absolute folder path. */
  path: string;
  /** Files inside the folder, relative, `/`-separated, sorted (partial downloads excluded). */
  files: string[];
  /** Dtypes whose encoder and merged decoder are both present, in preference order. */
  dtypes: string[];
  /** Total size of `files` in bytes. */
  sizeBytes: number;
  /** True when the folder holds everything a translation needs. */
  valid: boolean;
  /** Why the folder is not valid (empty when it is). */
  problems: string[];
}

const ID_PART = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** True for a safe `<org>/<name>` model id (no path tricks). */
export function isModelId(id: string): boolean {
  const parts = id.split("/");
  return parts.length === 2 && parts.every((part) => ID_PART.test(part) && !part.includes(".."));
}

/** Every `<org>/<name>` folder in `modelsDir`, sorted by id; empty when the directory is absent. */
export async function listInstalledModels(modelsDir: string): Promise<InstalledModel[]> {
  const models: InstalledModel[] = [];
  for (const org of await directories(modelsDir)) {
    for (const name of await directories(join(modelsDir, org))) {
      const model = await inspectModel(modelsDir, `${org}/${name}`);
      if (model) models.push(model);
    }
  }
  return models.sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * Why the models directory cannot be read — it is a file (a model's file given for its folder),
 * or the OS or Deno's sandbox refused it (a folder outside `deno task start`'s grant) — or null
 * when it can, or does not exist yet (`tolk models pull` makes it). Walks what the built-in
 * engine reads: every model folder and its files.
 */
export async function modelsDirProblem(modelsDir: string): Promise<string | null> {
  // Else read as an empty folder: "no models in FILE", and a pull hint that cannot work.
  const inTheWay = await fileInTheWay(modelsDir);
  if (inTheWay) return inTheWay;
  try {
    await listInstalledModels(modelsDir);
    return null;
  } catch (error) {
    if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable) {
      return error.message;
    }
    throw error;
  }
}

/**
 * Describes one installed model, or returns null when its folder does not exist.
 *
 * @throws {RangeError} when `id` is not a safe `<org>/<name>` id.
 */
export async function inspectModel(modelsDir: string, id: string): Promise<InstalledModel | null> {
  if (!isModelId(id)) throw new RangeError(`Cannot use "${id}" as a model id (expected org/name)`);
  const path = resolve(modelsDir, id);
  const sizes = new Map<string, number>();
  try {
    await collectFiles(path, "", sizes);
  } catch (error) {
    if (
      error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory ||
      isNameTooLong(error)
    ) {
      return null;
    }
    throw error;
  }
  const files = [...sizes.keys()].sort();
  const present = new Set(files);
  const dtypes = DTYPE_PREFERENCE.filter((dtype) =>
    SEQ2SEQ_SESSIONS.every((session) => present.has(`onnx/${session}${DTYPE_SUFFIXES[dtype]}.onnx`))
  );
  const problems = REQUIRED_FILES.filter((file) => !present.has(file)).map((file) =>
    `missing ${file}`
  );
  if (dtypes.length === 0) problems.push("no onnx/encoder_model*.onnx + decoder_model_merged pair");
  let sizeBytes = 0;
  for (const size of sizes.values()) sizeBytes += size;
  return { id, path, files, dtypes, sizeBytes, valid: problems.length === 0, problems };
}

async function directories(path: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(path)) {
      if (entry.isDirectory && ID_PART.test(entry.name)) names.push(entry.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return [];
    }
    throw error;
  }
  return names;
}

/** An id whose path part is longer than the file system allows names no installed model. */
function isNameTooLong(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ENAMETOOLONG";
}

async function collectFiles(root: string, prefix: string, sizes: Map<string, number>) {
  for await (const entry of Deno.readDir(join(root, prefix))) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory) await collectFiles(root, relative, sizes);
    else if (entry.isFile && !entry.name.endsWith(".part")) {
      sizes.set(relative, (await Deno.stat(join(root, relative))).size);
    }
  }
}

/**
 * Why `model` (the result of {@link inspectModel} for `id`) cannot serve yet and the command
 * that fixes it, in one line; null when it is ready. `tolk models pull` with no argument pulls
 * the settings' default model, so the hint names the id only for another model; `pullFlags`
 * (`--models-dir`, `--config`) make it pull where the service looks and read its settings.
 */
export function missingModelHint(
  id: string,
  model: InstalledModel | null,
  options: { modelsDir: string; isDefault: boolean; pullFlags?: Record<string, string> },
): string | null {
  if (model?.valid) return null;
  const state = model ? `incomplete (${model.problems.join(", ")})` : "not installed";
  const command = tolkCommand(
    options.isDefault ? "models pull" : `models pull ${id}`,
    options.pullFlags,
  );
  return `model ${id} is ${state} in ${options.modelsDir}; get it with \`${command}\``;
}
