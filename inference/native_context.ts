/**
 * One llama.cpp context with sequences (Deno FFI): the batch of each step is written in place into
 * buffers the `llama_batch` struct points to, so a step costs one FFI call and no copies.
 */
import { LLAMA_BATCH_SIZE, type LlamaLib } from "./llama_library.ts";

/** Options of {@link NativeModel.createContext}. */
export interface NativeContextOptions {
  /** KV cells one generation may fill: its context. */
  cells: number;
  /** Sequences that may decode together. */
  sequences: number;
  /**
   * A KV stream per sequence, each of `cells` cells (else one unified stream of `cells` shared by
   * all sequences; kv_layout.ts says why and when).
   */
  streams: boolean;
  /** Most tokens one `decode` call takes. */
  batchSize: number;
  /** CPU threads of the persistent pool that computes every step. */
  threads: number;
}

/** One token of a batch: which sequence, at which position, and whether its logits are needed. */
export interface BatchToken {
  token: number;
  position: number;
  sequence: number;
  output: boolean;
}

/** What another thread needs to drive a context: its address and its sizes. */
export interface NativeContextHandle {
  pointer: bigint;
  options: NativeContextOptions;
}

/** A context with sequences; decode calls must not overlap. */
export class NativeContext {
  readonly #lib: LlamaLib;
  readonly #release: () => void;
  readonly #options: NativeContextOptions;
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
  /**
   * KV cells of all sequences together, as llama.cpp allocated them: one context's when they share
   * a unified stream, one per sequence otherwise.
   */
  readonly cells: number;
  /** KV cells one sequence may fill: one generation's context (llama.cpp may round it up). */
  readonly sequenceCells: number;
  /** Whether each sequence has a KV stream of its own (else all share one unified stream). */
  readonly streams: boolean;
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
    this.#options = options;
    this.#lib = lib;
    this.#pointer = pointer;
    this.#release = release;
    this.#memory = lib.llama_get_memory(pointer);
    this.batchSize = batchSize;
    this.threads = options.threads;
    this.cells = lib.llama_n_ctx(pointer);
    this.sequenceCells = lib.llama_n_ctx_seq(pointer);
    this.streams = options.streams;
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
   * The raw logits of output `index` of the last decode, one per token id (a view of llama.cpp's
   * buffer: read it before the next decode).
   *
   * @throws {Error} when llama.cpp has no logits at `index`.
   */
  logitsAt(index: number, vocabSize: number): Float32Array {
    const logits = this.#lib.llama_get_logits_ith(this.#pointer, index);
    if (!logits) throw new Error(`llama.cpp has no logits at output ${index}`);
    return new Float32Array(Deno.UnsafePointerView.getArrayBuffer(logits, vocabSize * 4));
  }

  /** @internal For {@link LlamaNative.adoptContext} on the decode worker's thread. */
  get handle(): NativeContextHandle {
    if (!this.#pointer) throw new Error("the context is freed");
    return { pointer: BigInt(Deno.UnsafePointer.value(this.#pointer)), options: this.#options };
  }

  /**
   * Decodes `tokens` (at most {@link NativeContext.batchSize}) in one step on the pool's threads,
   * the calling thread among them: it returns when the step is done.
   * Output `i` of the step is the `i`-th token with `output: true`... as llama.cpp counts: by
   * batch index, which is what {@link NativeSampler.sample} takes.
   *
   * @returns llama.cpp's status: 0 ok, 1 no room in the KV cache, other values errors.
   */
  decode(tokens: readonly BatchToken[]): number {
    if (!this.#pointer) return -1;
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
