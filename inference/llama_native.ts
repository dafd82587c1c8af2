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
 * registry, same CPU variant). Struct layouts are those of llama.cpp release v0.5.0
 * (llama_library.ts); {@link LlamaNative.open} refuses any other release.
 */
import {
  contextParamsOf,
  cString,
  GGML_BACKEND_DEVICE_TYPE_CPU,
  type LlamaLib,
  llamaSymbols,
  modelParamsOf,
  NATIVE_RELEASE,
  threadpoolParamsOf,
} from "./llama_library.ts";
import { HugePages, type HugePagesReport } from "./huge_pages.ts";
import {
  NativeContext,
  type NativeContextHandle,
  type NativeContextOptions,
} from "./native_context.ts";

const TOP_K = 40;
/**
 * Temperatures below this draw greedily. llama.cpp divides float32 logits by the temperature,
 * and below ~1e-37 they overflow to infinity and the draw ignores them (1e-40 drew garbage);
 * well above that, so small a temperature already leaves only the top token in play.
 */
const GREEDY_BELOW = 1e-6;

/** Options of {@link LlamaNative.loadModel}. */
export interface NativeModelOptions {
  /** Layers to offload to a GPU (0 on CPU, -1 for all). */
  gpuLayers: number;
  /** Map the file (true) or read it into memory (false). */
  mmap: boolean;
}

/** How one sequence picks its tokens. */
export interface SamplerOptions {
  /** Below {@link GREEDY_BELOW} (0 included): greedy. */
  temperature: number;
  topP: number;
  /** OpenAI's frequency and presence penalties over the last `window` generated tokens. */
  penalties?: { frequency: number; presence: number; window: number };
  seed: number;
  /** Added to these tokens' logits (ids within the vocabulary) before any other sampler. */
  logitBias?: ReadonlyArray<{ token: number; bias: number }>;
  /** A GBNF grammar (its text and root rule), enforced on every token. */
  grammar?: { text: string; root: string };
}

/** What another thread needs to use loaded weights: their address. */
export interface NativeModelHandle {
  pointer: bigint;
}

/** The opened libraries. */
export class LlamaNative {
  /** The addon file whose dependencies hold llama.cpp ({@link LlamaNative.reopen} takes it). */
  readonly addonPath: string;
  readonly #lib: LlamaLib;
  readonly #newThreadpool: Deno.UnsafeFnPointer<{ parameters: ["buffer"]; result: "pointer" }>;
  readonly #freeThreadpool: Deno.UnsafeFnPointer<{ parameters: ["pointer"]; result: "void" }>;

  private constructor(addonPath: string) {
    this.addonPath = addonPath;
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
   * The same libraries from another thread (the decode worker): the loader hands back the
   * loaded object, so weights and contexts made on the first thread are valid here.
   *
   * @throws {Error} when `addonPath` holds no llama.cpp with a CPU backend.
   */
  static reopen(addonPath: string): LlamaNative {
    return new LlamaNative(addonPath);
  }

  /** Weights another thread loaded ({@link NativeModel.handle}); this thread never frees them. */
  adoptModel(handle: NativeModelHandle): NativeModel {
    return new NativeModel(this.#lib, Deno.UnsafePointer.create(handle.pointer)!, this);
  }

  /** A context another thread made ({@link NativeContext.handle}); its maker frees it. */
  adoptContext(handle: NativeContextHandle): NativeContext {
    const pointer = Deno.UnsafePointer.create(handle.pointer)!;
    return new NativeContext(this.#lib, pointer, handle.options, () => {});
  }

  /**
   * Loads the weights of a GGUF file.
   *
   * @throws {Error} when llama.cpp cannot load it.
   */
  loadModel(path: string, options: NativeModelOptions): NativeModel {
    const params = modelParamsOf(this.#lib, options);
    // Weights read into memory go on huge pages: 4 KiB pages cost a fifth of a decode step in TLB
    // misses (huge_pages.ts). A mapped file is the page cache's to lay out.
    const hugePages = options.mmap ? undefined : new HugePages();
    const before = hugePages?.snapshot();
    const model = this.#lib.llama_model_load_from_file(cString(path), params);
    if (!model) throw new Error(`llama.cpp cannot load ${path}`);
    const report = before && hugePages!.adviseSince(before);
    return new NativeModel(this.#lib, model, this, report ?? { collapsed: 0, advised: 0 });
  }

  /** @internal A thread pool for `threads` threads, or null when ggml cannot make one. */
  newThreadpool(threads: number): Deno.PointerValue {
    // Workers sleep as soon as a step ends instead of spinning for the next one: idle cores stay
    // free for other processes, and CpuContention does not count our own threads as demand.
    const params = threadpoolParamsOf(this.#lib, threads, 0);
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
  /** How much of the weights went on huge pages when they were loaded. */
  readonly hugePages: HugePagesReport;
  /** The model's width (embedding size). */
  readonly embeddingSize: number;
  /** Token ids of the vocabulary (logits per output). */
  readonly vocabSize: number;

  /** @internal */
  constructor(
    lib: LlamaLib,
    model: Deno.PointerObject,
    native: LlamaNative,
    hugePages: HugePagesReport = { collapsed: 0, advised: 0 },
  ) {
    this.#lib = lib;
    this.hugePages = hugePages;
    this.#model = model;
    this.#native = native;
    this.vocab = lib.llama_model_get_vocab(model)!;
    this.embeddingSize = lib.llama_model_n_embd(model);
    this.vocabSize = lib.llama_vocab_n_tokens(this.vocab);
  }

  /**
   * A context of `sequences` sequences, with KV streams of their own or one shared stream, computed
   * by its own pool.
   *
   * @throws {Error} when llama.cpp cannot allocate it.
   */
  createContext(options: NativeContextOptions): NativeContext {
    if (!this.#model) throw new Error("the model is freed");
    const params = contextParamsOf(this.#lib, options);
    const pages = new HugePages();
    const before = pages.snapshot();
    const context = this.#lib.llama_init_from_model(this.#model, params);
    if (!context) throw new Error("llama.cpp cannot create the context (out of memory?)");
    // The cache's streams are cleared, hence resident, in full: given back, a sequence's cells take
    // memory only as it fills them, and an idle daemon holds no more than with one shared stream.
    pages.releaseZeroPagesSince(before);
    const pool = this.#native.newThreadpool(options.threads);
    if (pool) this.#lib.llama_attach_threadpool(context, pool, null);
    return new NativeContext(this.#lib, context, options, () => {
      if (pool) this.#native.freeThreadpool(pool);
    });
  }

  /** @internal For {@link LlamaNative.adoptModel} on the decode worker's thread. */
  get handle(): NativeModelHandle {
    if (!this.#model) throw new Error("the model is freed");
    return { pointer: BigInt(Deno.UnsafePointer.value(this.#model)) };
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
   * A sampler chain (grammar → penalties → top-k 40 → top-p → temperature → seeded draw, or
   * greedy).
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
    const bias = options.logitBias ?? [];
    if (bias.length > 0) {
      // llama_logit_bias: { llama_token token (i32); float bias }, copied by llama.cpp.
      const entries = new DataView(new ArrayBuffer(8 * bias.length));
      bias.forEach(({ token, bias }, i) => {
        entries.setInt32(8 * i, token, true);
        entries.setFloat32(8 * i + 4, bias, true);
      });
      add(lib.llama_sampler_init_logit_bias(
        this.vocabSize,
        bias.length,
        new Uint8Array(entries.buffer),
      ));
    }
    const penalties = options.penalties;
    // Before the draw, greedy or not, as llama-server orders its chain; 0 and 0 add nothing.
    if (penalties && (penalties.frequency !== 0 || penalties.presence !== 0)) {
      add(lib.llama_sampler_init_penalties(
        this.vocabSize,
        penalties.window,
        1, // no multiplicative repeat penalty: OpenAI has none
        penalties.frequency,
        penalties.presence,
      ));
    }
    if (options.temperature < GREEDY_BELOW) add(lib.llama_sampler_init_greedy());
    else {
      // Top-k 40 first, as node-llama-cpp and llama-server default to: the long tail of a large
      // vocabulary (end tokens of a random test model included) never gets drawn.
      add(lib.llama_sampler_init_top_k(TOP_K));
      if (options.topP < 1) add(lib.llama_sampler_init_top_p(options.topP, 1n));
      add(lib.llama_sampler_init_temp(options.temperature));
      add(lib.llama_sampler_init_dist(samplerSeed(options.seed)));
    }
    return new NativeSampler(lib, chain);
  }

  /** Frees the weights (contexts first). */
  free(): void {
    if (this.#model) this.#lib.llama_model_free(this.#model);
    this.#model = null;
  }
}

/** The seed llama.cpp reads as "pick one at random" (`LLAMA_DEFAULT_SEED`). */
const RANDOM_SEED = 0xFFFFFFFF;

/**
 * The 32-bit dist seed of a request's integer seed. Every integer must reproduce its answer, so
 * none may land on {@link RANDOM_SEED} (`-1` and `4294967295` did); the high bits are folded in
 * so that seeds 2^32 apart do not draw alike. Seeds 0..2^32-2 keep their own value.
 */
export function samplerSeed(seed: number): number {
  const high = Math.floor(seed / 2 ** 32) >>> 0;
  const folded = ((seed >>> 0) ^ Math.imul(high, 0x9E3779B1)) >>> 0;
  return folded === RANDOM_SEED ? RANDOM_SEED - 1 : folded;
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
