/**
 * Direct calls into the llama.cpp libraries node-llama-cpp has already loaded (Deno FFI), for what
 * its JavaScript API cannot do: one context whose sequences decode in one batch per step, and a
 * persistent ggml thread pool attached to that context.
 *
 * Why not node-llama-cpp's own context: its addon never attaches a thread pool, so every decode
 * step of a multi-threaded context starts (and joins) fresh busy-waiting workers, and its batch
 * dispatcher takes whichever sequences happen to be queued, so concurrent sequences drift apart
 * and decode one at a time (BENCHMARKS.md, "Inference daemon").
 *
 * The symbols are looked up through node-llama-cpp's own addon file, after `getLlama()` loaded
 * it: opening the same file returns the loaded object, and a lookup searches its dependencies
 * (libllama, libggml, libc), so this is the very llama.cpp instance the addon uses (same backend
 * registry, same CPU variant) and `--allow-ffi` scoped to node_modules is enough. Struct layouts
 * are those of llama.cpp release v0.5.0, the one node-llama-cpp 3.22.1 ships;
 * {@link LlamaNative.open} refuses any other release.
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
const LLAMA_BATCH_SIZE = 56;
const GGML_BACKEND_DEVICE_TYPE_CPU = 0;
const TOP_K = 40;

const modelParams = { struct: Array(LLAMA_MODEL_PARAMS_SIZE / 8).fill("u64") } as const;
const contextParams = { struct: Array(LLAMA_CONTEXT_PARAMS_SIZE / 8).fill("u64") } as const;
const batch = { struct: Array(LLAMA_BATCH_SIZE / 8).fill("u64") } as const;

function llamaSymbols() {
  return {
    llama_model_default_params: { parameters: [], result: modelParams },
    llama_model_load_from_file: { parameters: ["buffer", modelParams], result: "pointer" },
    llama_model_free: { parameters: ["pointer"], result: "void" },
    llama_model_get_vocab: { parameters: ["pointer"], result: "pointer" },
    llama_context_default_params: { parameters: [], result: contextParams },
    llama_init_from_model: { parameters: ["pointer", contextParams], result: "pointer" },
    llama_free: { parameters: ["pointer"], result: "void" },
    llama_n_ctx: { parameters: ["pointer"], result: "u32" },
    llama_attach_threadpool: { parameters: ["pointer", "pointer", "pointer"], result: "void" },
    llama_set_n_threads: { parameters: ["pointer", "i32", "i32"], result: "void" },
    // Runs on a worker thread: the event loop keeps serving HTTP while a step computes.
    llama_decode: { parameters: ["pointer", batch], result: "i32", nonblocking: true },
    llama_get_memory: { parameters: ["pointer"], result: "pointer" },
    llama_memory_seq_rm: { parameters: ["pointer", "i32", "i32", "i32"], result: "bool" },
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

type LlamaLib = Deno.DynamicLibrary<ReturnType<typeof llamaSymbols>>["symbols"];

/** Options of {@link LlamaNative.loadModel}. */
export interface NativeModelOptions {
  /** Layers to offload to a GPU (0 on CPU, -1 for all). */
  gpuLayers: number;
  /** Map the file (true) or read it into memory (false). */
  mmap: boolean;
}

/** Options of {@link NativeModel.createContext}. */
export interface NativeContextOptions {
  /** KV cells of the whole context, shared by all sequences (unified cache). */
  cells: number;
  /** Sequences that may decode together. */
  sequences: number;
  /** Most tokens one `decode` call takes. */
  batchSize: number;
  /** CPU threads of the persistent pool that computes every step. */
  threads: number;
}

/** How one sequence picks its tokens. */
export interface SamplerOptions {
  /** 0 or below: greedy. */
  temperature: number;
  topP: number;
  seed: number;
  /** A GBNF grammar (its text and root rule), enforced on every token. */
  grammar?: { text: string; root: string };
}

const encoder = new TextEncoder();
const cString = (text: string) => encoder.encode(`${text}\0`);

/** The opened libraries. */
export class LlamaNative {
  readonly #lib: LlamaLib;
  readonly #newThreadpool: Deno.UnsafeFnPointer<{ parameters: ["buffer"]; result: "pointer" }>;
  readonly #freeThreadpool: Deno.UnsafeFnPointer<{ parameters: ["pointer"]; result: "void" }>;
  readonly #initThreadpoolParams: (params: Uint8Array, threads: number) => void;

  private constructor(addonPath: string) {
    this.#lib = Deno.dlopen(addonPath, llamaSymbols()).symbols;
    const lib = this.#lib;
    if (lib.ggml_backend_dev_count() === 0n) {
      throw new Error(`${addonPath} is not the llama.cpp node-llama-cpp loaded (no backends)`);
    }
    const device = lib.ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
    if (!device) throw new Error("llama.cpp has no CPU backend loaded");
    const registry = lib.ggml_backend_dev_backend_reg(device);
    // deno-lint-ignore no-explicit-any
    const proc = (name: string): Deno.PointerObject<any> => {
      const pointer = lib.ggml_backend_reg_get_proc_address(registry, cString(name));
      if (!pointer) throw new Error(`the CPU backend has no ${name}`);
      return pointer;
    };
    this.#newThreadpool = new Deno.UnsafeFnPointer(proc("ggml_threadpool_new"), {
      parameters: ["buffer"],
      result: "pointer",
    });
    this.#freeThreadpool = new Deno.UnsafeFnPointer(proc("ggml_threadpool_free"), {
      parameters: ["pointer"],
      result: "void",
    });
    this.#initThreadpoolParams = lib.ggml_threadpool_params_init;
  }

  /**
   * Reaches the llama.cpp that node-llama-cpp loaded (call after `getLlama()`): `release` is
   * `llama.llamaCppRelease.release`, `gpu` is `llama.gpu`.
   *
   * @throws {Error} for a release other than {@link NATIVE_RELEASE} (struct layouts differ), or
   *   when the addon file is not the loaded one.
   */
  static open(release: string, gpu: string | false): LlamaNative {
    if (release !== NATIVE_RELEASE) {
      throw new Error(`llama.cpp ${release} is not the ${NATIVE_RELEASE} this build expects`);
    }
    // node-llama-cpp's prebuilt packages: @node-llama-cpp/<platform>-<arch>[-<gpu>]/bins/<same>/
    const platform = { darwin: "mac", windows: "win" }[Deno.build.os as string] ?? Deno.build.os;
    const arch = Deno.build.arch === "x86_64" ? "x64" : "arm64";
    const name = [platform, arch, ...(gpu ? [gpu] : [])].join("-");
    const addon = new URL(
      `../node_modules/@node-llama-cpp/${name}/bins/${name}/llama-addon.node`,
      import.meta.url,
    );
    return new LlamaNative(addon.pathname);
  }

  /**
   * Loads the weights of a GGUF file.
   *
   * @throws {Error} when llama.cpp cannot load it.
   */
  loadModel(path: string, options: NativeModelOptions): NativeModel {
    const params = new Uint8Array(this.#lib.llama_model_default_params());
    const view = new DataView(params.buffer);
    view.setInt32(MODEL_N_GPU_LAYERS, options.gpuLayers, true);
    view.setInt32(MODEL_LOAD_MODE, options.mmap ? 1 : 0, true);
    const model = this.#lib.llama_model_load_from_file(cString(path), params);
    if (!model) throw new Error(`llama.cpp cannot load ${path}`);
    return new NativeModel(this.#lib, model, this);
  }

  /** @internal A thread pool for `threads` threads, or null when ggml cannot make one. */
  newThreadpool(threads: number): Deno.PointerValue {
    const params = new Uint8Array(THREADPOOL_PARAMS_SIZE);
    this.#initThreadpoolParams(params, threads);
    // Workers sleep as soon as a step ends instead of spinning for the next one: idle cores stay
    // free for other processes, and CpuContention does not count our own threads as demand.
    new DataView(params.buffer).setUint32(THREADPOOL_POLL, 0, true);
    return this.#newThreadpool.call(params);
  }

  /** @internal */
  freeThreadpool(pool: Deno.PointerObject): void {
    this.#freeThreadpool.call(pool);
  }
}

/** Loaded weights and their vocabulary. */
export class NativeModel {
  readonly #lib: LlamaLib;
  readonly #native: LlamaNative;
  readonly #piece = new Uint8Array(256);
  #model: Deno.PointerObject | null;
  /** @internal */
  readonly vocab: Deno.PointerObject;

  /** @internal */
  constructor(lib: LlamaLib, model: Deno.PointerObject, native: LlamaNative) {
    this.#lib = lib;
    this.#model = model;
    this.#native = native;
    this.vocab = lib.llama_model_get_vocab(model)!;
  }

  /**
   * A context of `sequences` sequences over one unified KV cache, computed by its own pool.
   *
   * @throws {Error} when llama.cpp cannot allocate it.
   */
  createContext(options: NativeContextOptions): NativeContext {
    if (!this.#model) throw new Error("the model is freed");
    const params = new Uint8Array(this.#lib.llama_context_default_params());
    const view = new DataView(params.buffer);
    view.setUint32(CONTEXT_N_CTX, options.cells, true);
    view.setUint32(CONTEXT_N_BATCH, options.batchSize, true);
    view.setUint32(CONTEXT_N_UBATCH, Math.min(options.batchSize, 512), true);
    view.setUint32(CONTEXT_N_SEQ_MAX, options.sequences, true);
    view.setInt32(CONTEXT_N_THREADS, options.threads, true);
    view.setInt32(CONTEXT_N_THREADS_BATCH, options.threads, true);
    view.setUint8(CONTEXT_NO_PERF, 1);
    view.setUint8(CONTEXT_KV_UNIFIED, 1);
    const context = this.#lib.llama_init_from_model(this.#model, params);
    if (!context) throw new Error("llama.cpp cannot create the context (out of memory?)");
    const pool = this.#native.newThreadpool(options.threads);
    if (pool) this.#lib.llama_attach_threadpool(context, pool, null);
    return new NativeContext(this.#lib, context, options, () => {
      if (pool) this.#native.freeThreadpool(pool);
    });
  }

  /** Whether `token` ends a generation (end of stream or turn). */
  isEndOfGeneration(token: number): boolean {
    return this.#lib.llama_vocab_is_eog(this.vocab, token);
  }

  /** The bytes of `token` as the model writes them (control tokens give none). */
  pieceOf(token: number): Uint8Array {
    let size = this.#lib.llama_token_to_piece(this.vocab, token, this.#piece, 256, 0, false);
    if (size < 0) {
      const large = new Uint8Array(-size);
      size = this.#lib.llama_token_to_piece(this.vocab, token, large, large.length, 0, false);
      return large.slice(0, size);
    }
    return this.#piece.slice(0, size);
  }

  /**
   * A sampler chain (grammar → top-k 40 → top-p → temperature → seeded draw, or greedy).
   *
   * @throws {Error} when llama.cpp refuses the grammar.
   */
  createSampler(options: SamplerOptions): NativeSampler {
    const lib = this.#lib;
    const chain = lib.llama_sampler_chain_init(new Uint8Array([1]))!;
    const add = (sampler: Deno.PointerValue) => lib.llama_sampler_chain_add(chain, sampler);
    if (options.grammar) {
      const grammar = lib.llama_sampler_init_grammar(
        this.vocab,
        cString(options.grammar.text),
        cString(options.grammar.root),
      );
      if (!grammar) {
        lib.llama_sampler_free(chain);
        throw new Error("llama.cpp refused the grammar");
      }
      add(grammar);
    }
    if (options.temperature <= 0) add(lib.llama_sampler_init_greedy());
    else {
      // Top-k 40 first, as node-llama-cpp and llama-server default to: the long tail of a large
      // vocabulary (end tokens of a random test model included) never gets drawn.
      add(lib.llama_sampler_init_top_k(TOP_K));
      if (options.topP < 1) add(lib.llama_sampler_init_top_p(options.topP, 1n));
      add(lib.llama_sampler_init_temp(options.temperature));
      add(lib.llama_sampler_init_dist(options.seed >>> 0));
    }
    return new NativeSampler(lib, chain);
  }

  /** Frees the weights (contexts first). */
  free(): void {
    if (this.#model) this.#lib.llama_model_free(this.#model);
    this.#model = null;
  }
}

/** Picks the tokens of one sequence; {@link NativeSampler.free} when the generation ends. */
export class NativeSampler {
  readonly #lib: LlamaLib;
  #chain: Deno.PointerObject | null;

  /** @internal */
  constructor(lib: LlamaLib, chain: Deno.PointerObject) {
    this.#lib = lib;
    this.#chain = chain;
  }

  /** Samples (and accepts) the next token from output `index` of the last decode. */
  sample(context: NativeContext, index: number): number {
    return this.#lib.llama_sampler_sample(this.#chain, context.pointer, index);
  }

  /** Frees the chain (idempotent). */
  free(): void {
    if (this.#chain) this.#lib.llama_sampler_free(this.#chain);
    this.#chain = null;
  }
}

/** One token of a batch: which sequence, at which position, and whether its logits are needed. */
export interface BatchToken {
  token: number;
  position: number;
  sequence: number;
  output: boolean;
}

/** A context with sequences; decode calls must not overlap. */
export class NativeContext {
  readonly #lib: LlamaLib;
  readonly #release: () => void;
  readonly #memory: Deno.PointerValue;
  readonly #tokens: Int32Array;
  readonly #positions: Int32Array;
  readonly #seqCounts: Int32Array;
  readonly #seqIds: Int32Array;
  readonly #seqIdPointers: BigUint64Array;
  readonly #outputs: Int8Array;
  readonly #batch = new BigUint64Array(LLAMA_BATCH_SIZE / 8);
  #pointer: Deno.PointerObject | null;
  /** Most tokens one {@link NativeContext.decode} takes. */
  readonly batchSize: number;
  /** KV cells llama.cpp allocated (may round the request up). */
  readonly cells: number;
  /** Threads of its pool. */
  readonly threads: number;

  /** @internal */
  constructor(
    lib: LlamaLib,
    pointer: Deno.PointerObject,
    options: NativeContextOptions,
    release: () => void,
  ) {
    const { batchSize } = options;
    this.#lib = lib;
    this.#pointer = pointer;
    this.#release = release;
    this.#memory = lib.llama_get_memory(pointer);
    this.batchSize = batchSize;
    this.threads = options.threads;
    this.cells = lib.llama_n_ctx(pointer);
    this.#tokens = new Int32Array(batchSize);
    this.#positions = new Int32Array(batchSize);
    this.#seqCounts = new Int32Array(batchSize).fill(1);
    this.#seqIds = new Int32Array(batchSize);
    this.#outputs = new Int8Array(batchSize);
    // Each token's seq_id array is one slot of #seqIds (one sequence per token).
    const address = (array: ArrayBufferView) =>
      BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(array)));
    const seqBase = address(this.#seqIds);
    this.#seqIdPointers = BigUint64Array.from(
      { length: batchSize },
      (_, i) => seqBase + 4n * BigInt(i),
    );
    this.#batch[1] = address(this.#tokens);
    this.#batch[2] = 0n; // no embeddings
    this.#batch[3] = address(this.#positions);
    this.#batch[4] = address(this.#seqCounts);
    this.#batch[5] = address(this.#seqIdPointers);
    this.#batch[6] = address(this.#outputs);
  }

  /** @internal */
  get pointer(): Deno.PointerObject | null {
    return this.#pointer;
  }

  /**
   * Decodes `tokens` (at most {@link NativeContext.batchSize}) in one step on the pool's threads.
   * Output `i` of the step is the `i`-th token with `output: true`... as llama.cpp counts: by
   * batch index, which is what {@link NativeSampler.sample} takes.
   *
   * @returns llama.cpp's status: 0 ok, 1 no room in the KV cache, other values errors.
   */
  decode(tokens: readonly BatchToken[]): Promise<number> {
    if (!this.#pointer) return Promise.resolve(-1);
    tokens.forEach((item, i) => {
      this.#tokens[i] = item.token;
      this.#positions[i] = item.position;
      this.#seqIds[i] = item.sequence;
      this.#outputs[i] = item.output ? 1 : 0;
    });
    this.#batch[0] = BigInt(tokens.length) & 0xffffffffn;
    return this.#lib.llama_decode(this.#pointer, new Uint8Array(this.#batch.buffer));
  }

  /** Threads of the next steps (at most the pool's). */
  setThreads(threads: number): void {
    if (this.#pointer) this.#lib.llama_set_n_threads(this.#pointer, threads, threads);
  }

  /** Forgets the cells of `sequence` from position `from` on. */
  forget(sequence: number, from = 0): void {
    this.#lib.llama_memory_seq_rm(this.#memory, sequence, from, -1);
  }

  /** Frees the context and its thread pool (idempotent). */
  free(): void {
    if (!this.#pointer) return;
    this.#lib.llama_free(this.#pointer);
    this.#pointer = null;
    this.#release();
  }
}
