/**
 * Checks a model file before llama.cpp sees it: missing, not a GGUF file, a header that lies
 * about its counts, offsets or sizes, or valid with an id.
 */
import { readGgufHeader } from "./gguf_header.ts";

/** The verdict on a model file. */
export type ModelFileReport =
  | { ok: true; modelId: string }
  | { ok: false; status: "missing" | "invalid"; reason: string };

/**
 * Reads and checks the GGUF header of `path` (bounded reads, no model load).
 *
 * Never throws: every problem is a report with a one-line reason that names the file.
 */
export async function inspectModelFile(path: string): Promise<ModelFileReport> {
  try {
    const stat = await Deno.stat(path);
    if (!stat.isFile) return { ok: false, status: "invalid", reason: `${path} is not a file` };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { ok: false, status: "missing", reason: `model file ${path} does not exist` };
    }
    return { ok: false, status: "invalid", reason: `cannot read ${path}: ${firstLine(error)}` };
  }
  try {
    const name = (await readGgufHeader(path)).name?.trim();
    const modelId = name || modelIdFromPath(path);
    return { ok: true, modelId };
  } catch (error) {
    return {
      ok: false,
      status: "invalid",
      reason: `${path} is not a readable GGUF model file (${firstLine(error)})`,
    };
  }
}

/** The file's base name without its extension (`/m/tiny.gguf` → `tiny`). */
export function modelIdFromPath(path: string): string {
  const file = path.split(/[\\/]/).pop() ?? path;
  return file.replace(/\.[^.]+$/, "") || file;
}

function firstLine(error: unknown): string {
  return error instanceof Error ? error.message.split("\n")[0] : String(error);
}
