/**
 * The llama.cpp functions tolk calls directly (Deno FFI), and the structs they take, laid out as
 * in llama.cpp release {@link NATIVE_RELEASE}, the one node-llama-cpp 3.22.1 ships. Every byte
 * offset of those structs lives here; the rest of the code fills them through these writers.
 */

/** The llama.cpp release whose struct layouts this file encodes. */
export const NATIVE_RELEASE = "v0.5.0";

const LLAMA_MODEL_PARAMS_SIZE = 80;
const MODEL_N_GPU_LAYERS = 16;
const MODEL_LOAD_MODE = 24; // enum llama_load_mode: 0 read, 1 mmap
const LLAMA_CONTEXT_PARAMS_SIZE = 160;
const CONTEXT_N_CTX = 0;
const CONTEXT_N_BATCH = 4;
const CONTEXT_N_UBATCH = 8;
const CONTEXT_N_SEQ_MAX = 12;
const CONTEXT_N_THREADS = 28;
const CONTEXT_N_THREADS_BATCH = 32;
const CONTEXT_NO_PERF = 130;
const CONTEXT_KV_UNIFIED = 133;
const THREADPOOL_PARAMS_SIZE = 528;
const THREADPOOL_POLL = 520;
/**
 * Size of `struct llama_batch`: n_tokens (i32, padded), then the pointers token, embd, pos,
 * n_seq_id, seq_id, logits, one u64 each.
 */
export const LLAMA_BATCH_SIZE = 56;
/** `GGML_BACKEND_DEVICE_TYPE_CPU`. */
export const GGML_BACKEND_DEVICE_TYPE_CPU = 0;

const modelParams = { struct: Array(LLAMA_MODEL_PARAMS_SIZE / 8).fill("u64") } as const;
const contextParams = { struct: Array(LLAMA_CONTEXT_PARAMS_SIZE / 8).fill("u64") } as const;
const batch = { struct: Array(LLAMA_BATCH_SIZE / 8).fill("u64") } as const;

/** The symbols tolk binds, for `Deno.dlopen`. */
export function llamaSymbols() {
  return {
    llama_model_default_params: { parameters: [], result: modelParams },
    llama_model_load_from_file: { parameters: ["buffer", modelParams], result: "pointer" },
    llama_model_free: { parameters: ["pointer"], result: "void" },
    llama_model_get_vocab: { parameters: ["pointer"], result: "pointer" },
    llama_model_n_embd: { parameters: ["pointer"], result: "i32" },
    llama_context_default_params: { parameters: [], result: contextParams },
    llama_init_from_model: { parameters: ["pointer", contextParams], result: "pointer" },
    llama_free: { parameters: ["pointer"], result: "void" },
    llama_n_ctx: { parameters: ["pointer"], result: "u32" },
    llama_n_ctx_seq: { parameters: ["pointer"], result: "u32" },
    llama_attach_threadpool: { parameters: ["pointer", "pointer", "pointer"], result: "void" },
    llama_set_n_threads: { parameters: ["pointer", "i32", "i32"], result: "void" },
    // Synchronous: the decode worker's thread computes step after step (decode_worker.ts), and
    // the event loop never waits on it.
    llama_decode: { parameters: ["pointer", batch], result: "i32" },
    llama_get_logits_ith: { parameters: ["pointer", "i32"], result: "pointer" },
    llama_get_memory: { parameters: ["pointer"], result: "pointer" },
    llama_memory_seq_rm: { parameters: ["pointer", "i32", "i32", "i32"], result: "bool" },
    llama_vocab_n_tokens: { parameters: ["pointer"], result: "i32" },
    llama_vocab_is_eog: { parameters: ["pointer", "i32"], result: "bool" },
    llama_token_to_piece: {
      parameters: ["pointer", "i32", "buffer", "i32", "i32", "bool"],
      result: "i32",
    },
    llama_sampler_chain_init: { parameters: [{ struct: ["u8"] }], result: "pointer" },
    llama_sampler_chain_add: { parameters: ["pointer", "pointer"], result: "void" },
    llama_sampler_init_greedy: { parameters: [], result: "pointer" },
    llama_sampler_init_dist: { parameters: ["u32"], result: "pointer" },
    llama_sampler_init_temp: { parameters: ["f32"], result: "pointer" },
    llama_sampler_init_top_k: { parameters: ["i32"], result: "pointer" },
    llama_sampler_init_top_p: { parameters: ["f32", "usize"], result: "pointer" },
    llama_sampler_init_penalties: {
      parameters: ["i32", "i32", "f32", "f32", "f32"],
      result: "pointer",
    },
    llama_sampler_init_logit_bias: { parameters: ["i32", "i32", "buffer"], result: "pointer" },
    llama_sampler_init_grammar: { parameters: ["pointer", "buffer", "buffer"], result: "pointer" },
    llama_sampler_sample: { parameters: ["pointer", "pointer", "i32"], result: "i32" },
    llama_sampler_free: { parameters: ["pointer"], result: "void" },
    ggml_backend_dev_count: { parameters: [], result: "usize" },
    ggml_backend_dev_by_type: { parameters: ["i32"], result: "pointer" },
    ggml_backend_dev_backend_reg: { parameters: ["pointer"], result: "pointer" },
    ggml_backend_reg_get_proc_address: { parameters: ["pointer", "buffer"], result: "pointer" },
    ggml_threadpool_params_init: { parameters: ["buffer", "i32"], result: "void" },
  } as const satisfies Deno.ForeignLibraryInterface;
}

/** The bound symbols. */
export type LlamaLib = Deno.DynamicLibrary<ReturnType<typeof llamaSymbols>>["symbols"];

const encoder = new TextEncoder();

/** `text` as a NUL-terminated C string. */
export const cString = (text: string): Uint8Array => encoder.encode(`${text}\0`);

/** `llama_model_params`: llama.cpp's defaults with these GPU layers and load mode. */
export function modelParamsOf(
  lib: LlamaLib,
  options: { gpuLayers: number; mmap: boolean },
): Uint8Array<ArrayBuffer> {
  const params = new Uint8Array(lib.llama_model_default_params());
  const view = new DataView(params.buffer);
  view.setInt32(MODEL_N_GPU_LAYERS, options.gpuLayers, true);
  view.setInt32(MODEL_LOAD_MODE, options.mmap ? 1 : 0, true);
  return params;
}

/**
 * `llama_context_params`: llama.cpp's defaults with these sizes and threads, `cells` KV cells for
 * each sequence in a stream of its own (`streams`, as llama-server's slots) or for all of them in
 * one unified stream, and no performance counters.
 */
export function contextParamsOf(
  lib: LlamaLib,
  options: {
    cells: number;
    sequences: number;
    batchSize: number;
    threads: number;
    streams: boolean;
  },
): Uint8Array<ArrayBuffer> {
  const params = new Uint8Array(lib.llama_context_default_params());
  const view = new DataView(params.buffer);
  const streams = options.streams ? options.sequences : 1;
  view.setUint32(CONTEXT_N_CTX, options.cells * streams, true);
  view.setUint32(CONTEXT_N_BATCH, options.batchSize, true);
  view.setUint32(CONTEXT_N_UBATCH, Math.min(options.batchSize, 512), true);
  view.setUint32(CONTEXT_N_SEQ_MAX, options.sequences, true);
  view.setInt32(CONTEXT_N_THREADS, options.threads, true);
  view.setInt32(CONTEXT_N_THREADS_BATCH, options.threads, true);
  view.setUint8(CONTEXT_NO_PERF, 1);
  // Which layout, and why: kv_layout.ts.
  view.setUint8(CONTEXT_KV_UNIFIED, options.streams ? 0 : 1);
  return params;
}

/** `ggml_threadpool_params` for `threads` threads polling at level `poll` (0: no polling). */
export function threadpoolParamsOf(
  lib: LlamaLib,
  threads: number,
  poll: number,
): Uint8Array<ArrayBuffer> {
  const params = new Uint8Array(THREADPOOL_PARAMS_SIZE);
  lib.ggml_threadpool_params_init(params, threads);
  new DataView(params.buffer).setUint32(THREADPOOL_POLL, poll, true);
  return params;
}
