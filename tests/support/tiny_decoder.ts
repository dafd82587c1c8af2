/**
 * The tiny GGUF fixture's weights and a native context over them, and a decode loop on them, for
 * tests of the decode loop (batch_decoder.ts) without a worker or a daemon.
 */
import assert from "node:assert/strict";
import { loadLlama } from "../../inference/llama_model.ts";
import { BatchDecoder } from "../../inference/batch_decoder.ts";
import type { DecodeEvents, DecodeResult } from "../../inference/decode_job.ts";
import { CpuContention } from "../../inference/cpu_contention.ts";
import { LlamaNative, type NativeModel } from "../../inference/llama_native.ts";
import type { NativeContext, NativeContextOptions } from "../../inference/native_context.ts";
import { TINY_GGUF } from "./infer_daemon.ts";
import { fakeProc, OWN_PID } from "./fake_proc.ts";

/** The tiny model's weights and a context over them; `close` frees all three. */
export async function tinyContext(options: NativeContextOptions) {
  const llama = await loadLlama(false);
  const native = LlamaNative.open(llama.llamaCppRelease.release, llama.gpu);
  const model = native.loadModel(TINY_GGUF, { gpuLayers: 0, mmap: false });
  const context = model.createContext(options);
  const close = async () => {
    context.free();
    model.free();
    await llama.dispose();
  };
  return { model, context, close };
}

/**
 * A decoder of `sequences` slots on one core no other process wants; `end` gets each result and
 * `text` each piece.
 */
export function quietDecoder(
  { model, context }: { model: NativeModel; context: NativeContext },
  sequences: number,
  end: (id: number, result: DecodeResult) => void,
  text: DecodeEvents["text"] = () => {},
): BatchDecoder {
  return new BatchDecoder(model, context, {
    sequences,
    contention: new CpuContention(fakeProc([]), { cores: 1, pid: OWN_PID }),
    events: { text, end, fail: (_, reason) => assert.fail(reason) },
  });
}
