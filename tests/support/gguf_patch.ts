/**
 * Corrupt copies of the tiny GGUF fixture, made by patching bytes of its header in a temp file.
 */
import { TINY_GGUF } from "./infer_daemon.ts";

/** A patch of the fixture's bytes (in place, or a new length). */
export type GgufPatch = (bytes: Uint8Array, view: DataView) => Uint8Array;

/** Writes a patched copy of the fixture to a temp file and returns its path. */
export async function patchedTinyGguf(patch: GgufPatch): Promise<string> {
  const bytes = await Deno.readFile(TINY_GGUF);
  const out = patch(bytes, new DataView(bytes.buffer));
  const path = await Deno.makeTempFile({ prefix: "tolk-corrupt-", suffix: ".gguf" });
  await Deno.writeFile(path, out);
  return path;
}

/** Byte offset of the first tensor info's name length (after the metadata). */
export function firstTensorInfo(bytes: Uint8Array, name = "token_embd.weight"): number {
  const needle = new TextEncoder().encode(name);
  outer: for (let i = 0; i < bytes.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
    return i - 8;
  }
  throw new Error(`no tensor named ${name}`);
}

/** Offsets of the fields of the tensor info that starts at `at`. */
export function tensorInfoFields(view: DataView, at: number) {
  const nameLength = Number(view.getBigUint64(at, true));
  const dims = at + 8 + nameLength;
  const count = view.getUint32(dims, true);
  const type = dims + 4 + 8 * count;
  return { dims, type, offset: type + 4 };
}
