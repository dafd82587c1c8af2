/**
 * One decode loop for all running generations, as llama-server's slots: every step puts the next
 * token of each generating sequence (and a chunk of any waiting prompt) into one batch, so the
 * weights are read once per step whatever the number of requests.
 *
 * The KV cache is unified: all sequences share its cells, so an idle daemon holds one context's
 * worth, not one per slot. When cells run short, idle sequences' kept prompts go first, then the
 * newest generation is put back to re-read its tokens later; the oldest always advances.
 */
import type { NativeModel, NativeSampler, SamplerOptions } from "./llama_native.ts";
import type { BatchToken, NativeContext } from "./native_context.ts";
import type { CpuContention } from "./cpu_contention.ts";
import { type HiddenSegment, HiddenSegmentFilter, partialEnd } from "./hidden_segments.ts";
import type { StopReason } from "./generation.ts";

/** One generation for {@link BatchDecoder.generate}. */
export interface DecodeJob {
  /** Prompt tokens (at least one). */
  prompt: readonly number[];
  maxTokens: number;
  sampler: SamplerOptions;
  /** Token sequences that end the generation (the chat template's end-of-turn markers). */
  stopTokenSequences: readonly (readonly number[])[];
  /** Texts that end the generation, left out of the answer; `custom` are the request's own. */
  stopTexts: readonly { text: string; custom: boolean }[];
  /** Segments left out of the answer (the template's chain of thought). */
  hidden?: readonly HiddenSegment[];
  signal?: AbortSignal;
  /** Each decoded piece of the answer, in order, with stop texts held back until ruled out. */
  onText?: (text: string) => void;
}

/** What a finished generation produced. */
export interface DecodeResult {
  text: string;
  stopReason: StopReason;
  completionTokens: number;
}

interface Slot {
  index: number;
  /** Tokens whose cells this sequence holds, in order from position 0. */
  cached: number[];
  generation?: Generation;
}

interface Generation {
  job: DecodeJob;
  slot: Slot;
  /** Prompt plus generated tokens; the cells hold `slot.cached`, a prefix of it. */
  tokens: number[];
  generated: number;
  started: number;
  sampler: NativeSampler;
  /** Ended by a stop text: the text is already cut and sent. */
  cut: boolean;
  decoder: TextDecoder;
  hidden: HiddenSegmentFilter;
  text: string;
  emitted: number;
  resolve(result: DecodeResult): void;
  reject(error: unknown): void;
}

let startCounter = 0;

/** The decode loop over one native context with `sequences` sequences. */
export class BatchDecoder {
  readonly #model: NativeModel;
  readonly #context: NativeContext;
  readonly #slots: Slot[];
  readonly #waiting: Array<() => void> = [];
  readonly #contention: CpuContention;
  #threads = 0;
  #running?: Promise<void>;
  #closed = false;

  /** `contention` says how many of the context's threads each step may use. */
  constructor(
    model: NativeModel,
    context: NativeContext,
    sequences: number,
    contention: CpuContention,
  ) {
    this.#contention = contention;
    this.#model = model;
    this.#context = context;
    this.#slots = Array.from({ length: sequences }, (_, index) => ({ index, cached: [] }));
  }

  /** Threads the last step computed with (0 before the first). */
  get threads(): number {
    return this.#threads;
  }

  /** Generations running now. */
  get active(): number {
    return this.#slots.filter((slot) => slot.generation).length;
  }

  /**
   * Runs one generation to its end. Waits for a free sequence when all are busy.
   *
   * @throws {Error} when llama.cpp fails a step (all generations of that step fail), or the
   *   grammar is refused.
   */
  async generate(job: DecodeJob): Promise<DecodeResult> {
    while (!this.#slots.some((slot) => !slot.generation)) {
      if (job.signal?.aborted || this.#closed) break;
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    if (job.signal?.aborted || this.#closed) {
      return { text: "", stopReason: "abort", completionTokens: 0 };
    }
    const slot = this.#pickSlot(job.prompt);
    const sampler = this.#model.createSampler(job.sampler);
    return new Promise<DecodeResult>((resolve, reject) => {
      slot.generation = {
        job,
        slot,
        tokens: [...job.prompt],
        generated: 0,
        started: startCounter++,
        sampler,
        decoder: new TextDecoder("utf-8"),
        hidden: new HiddenSegmentFilter(job.hidden ?? []),
        text: "",
        emitted: 0,
        cut: false,
        resolve,
        reject,
      };
      this.#running ??= this.#loop();
    });
  }

  /** The free slot whose kept tokens share the longest prefix with `prompt` (prompt cache). */
  #pickSlot(prompt: readonly number[]): Slot {
    let best: Slot | undefined, bestShared = -1;
    for (const slot of this.#slots) {
      if (slot.generation) continue;
      const shared = commonPrefix(slot.cached, prompt);
      if (shared > bestShared) [best, bestShared] = [slot, shared];
    }
    const slot = best!;
    // At least the last prompt token is decoded again: its logits pick the first answer token.
    const keep = Math.min(bestShared, prompt.length - 1);
    if (keep < slot.cached.length) {
      this.#context.forget(slot.index, keep);
      slot.cached.length = keep;
    }
    return slot;
  }

  /** Ends every generation (`abort`) and waits for the step in flight: then the context may go. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const slot of this.#slots) {
      if (slot.generation) this.#finish(slot.generation, "abort");
    }
    this.#wakeWaiters();
    await this.#running;
  }

  async #loop(): Promise<void> {
    let threads = this.#contention.threadsFor(this.#context.threads);
    try {
      for (;;) {
        const generations = this.#slots.flatMap((slot) => slot.generation ?? []);
        if (!generations.length) break;
        const aborted = generations.filter((generation) => generation.job.signal?.aborted);
        for (const generation of aborted) this.#finish(generation, "abort");
        if (aborted.length) continue;
        let batch = this.#planStep();
        if (!batch.tokens.length) throw new Error("no generation fits the KV cache");
        this.#useThreads(threads);
        let status = await this.#context.decode(batch.tokens);
        while (status === 1 && this.#evictNewest()) {
          batch = this.#planStep();
          status = await this.#context.decode(batch.tokens);
        }
        if (status !== 0) throw new Error(`llama.cpp decode failed (status ${status})`);
        // The machine's load is read now, before this step's text wakes the clients that read it:
        // read after, every stream's reader counted as a competitor for a core.
        threads = this.#contention.threadsFor(this.#context.threads);
        this.#afterStep(batch.outputs, batch.fed);
      }
    } catch (error) {
      // The running generations fail; their cells are dropped and later ones start clean.
      for (const slot of this.#slots) {
        if (slot.generation) {
          slot.generation.sampler.free();
          slot.generation.reject(error);
          slot.generation = undefined;
        }
        this.#context.forget(slot.index);
        slot.cached = [];
      }
    } finally {
      this.#running = undefined;
      this.#wakeWaiters();
    }
  }

  /**
   * The next step's tokens: one per generating sequence first (oldest first), then prompt chunks,
   * as many as the batch and the free cells take. A prompt starts only when all of it fits in the
   * free cells, so a full cache finishes what it runs instead of thrashing.
   */
  #planStep(): {
    tokens: BatchToken[];
    outputs: Map<Generation, number>;
    fed: Map<Generation, number>;
  } {
    const tokens: BatchToken[] = [];
    const outputs = new Map<Generation, number>();
    const fed = new Map<Generation, number>();
    const pendingOf = (g: Generation) => g.tokens.length - g.slot.cached.length;
    const generations = this.#slots.flatMap((slot) => slot.generation ?? [])
      .sort((a, b) =>
        Math.min(pendingOf(a), 2) - Math.min(pendingOf(b), 2) || a.started - b.started
      );
    const waiting = generations.filter((g) => pendingOf(g) > 1 && !g.slot.cached.length);
    const smallestPrompt = Math.min(...waiting.map(pendingOf)) + generations.length;
    const decoding = generations.filter((g) => pendingOf(g) === 1).length;
    if (waiting.length) this.#makeRoom(decoding + smallestPrompt, false);
    this.#makeRoom(decoding, true);
    let free = this.#context.cells - this.#held();
    for (const generation of generations) {
      const { slot } = generation;
      const pending = pendingOf(generation);
      const started = slot.cached.length > 0 && pending > 1; // a prompt already part-read
      if (pending > 1 && !started && pending > free - generations.length) continue;
      const count = Math.min(pending, this.#context.batchSize - tokens.length, free);
      if (count <= 0) continue;
      for (let i = 0; i < count; i++) {
        const position = slot.cached.length + i;
        const last = i === pending - 1;
        if (last) outputs.set(generation, tokens.length);
        tokens.push({
          token: generation.tokens[position],
          position,
          sequence: slot.index,
          output: last,
        });
      }
      free -= count;
      fed.set(generation, count);
    }
    return { tokens, outputs, fed };
  }

  #held(): number {
    return this.#slots.reduce((sum, slot) => sum + slot.cached.length, 0);
  }

  #useThreads(threads: number): void {
    if (threads === this.#threads) return;
    this.#threads = threads;
    this.#context.setThreads(threads);
  }

  /** Frees `needed` cells: idle sequences' kept tokens, then (`evict`) the newest generation's. */
  #makeRoom(needed: number, evict: boolean): void {
    const short = () => this.#held() + needed - this.#context.cells;
    for (const slot of this.#slots) {
      if (short() <= 0) return;
      if (!slot.generation && slot.cached.length) {
        this.#context.forget(slot.index);
        slot.cached = [];
      }
    }
    while (evict && short() > 0 && this.#evictNewest()) { /* the newest re-reads later */ }
  }

  /** Puts the newest generation that holds cells back to re-read its tokens; false if none. */
  #evictNewest(): boolean {
    const holders = this.#slots.flatMap((slot) => slot.generation ?? [])
      .filter((g) => g.slot.cached.length)
      .sort((a, b) => b.started - a.started);
    if (holders.length < 2) return false; // the oldest always advances
    const newest = holders[0];
    this.#context.forget(newest.slot.index);
    newest.slot.cached = [];
    return true;
  }

  #afterStep(outputs: Map<Generation, number>, fed: Map<Generation, number>): void {
    for (const [generation, count] of fed) {
      const { slot } = generation;
      slot.cached.push(...generation.tokens.slice(slot.cached.length, slot.cached.length + count));
    }
    for (const [generation, index] of outputs) {
      if (generation.slot.generation !== generation) continue;
      const token = generation.sampler.sample(this.#context, index);
      generation.tokens.push(token);
      generation.generated++;
      const reason = this.#stopAfter(generation, token);
      if (reason) this.#finish(generation, reason);
      else if (generation.generated >= generation.job.maxTokens) {
        this.#finish(generation, "maxTokens");
      }
    }
  }

  /** Appends `token`'s text and says whether the generation ends with it. */
  #stopAfter(generation: Generation, token: number): StopReason | undefined {
    const { job } = generation;
    if (this.#model.isEndOfGeneration(token)) return "endOfTurn";
    for (const sequence of job.stopTokenSequences) {
      if (endsWith(generation.tokens, sequence, job.prompt.length)) return "endOfTurn";
    }
    const piece = generation.decoder.decode(this.#model.pieceOf(token), { stream: true });
    generation.text += generation.hidden.push(piece);
    let holdBack = 0;
    for (const stop of job.stopTexts) {
      const at = generation.text.indexOf(
        stop.text,
        Math.max(0, generation.emitted - stop.text.length),
      );
      if (at >= 0) {
        generation.text = generation.text.slice(0, at);
        generation.cut = true;
        this.#emit(generation);
        return stop.custom ? "stopSequence" : "endOfTurn";
      }
      holdBack = Math.max(holdBack, partialEnd(generation.text, stop.text));
    }
    this.#emit(generation, generation.text.length - holdBack);
    return undefined;
  }

  #emit(generation: Generation, upTo = generation.text.length): void {
    if (upTo <= generation.emitted) return;
    const piece = generation.text.slice(generation.emitted, upTo);
    generation.emitted = upTo;
    generation.job.onText?.(piece);
  }

  #finish(generation: Generation, stopReason: StopReason): void {
    const { slot } = generation;
    if (stopReason !== "abort" && !generation.cut) {
      const { hidden } = generation;
      generation.text += hidden.push(generation.decoder.decode()) + hidden.flush();
      this.#emit(generation);
    }
    generation.sampler.free();
    slot.generation = undefined;
    generation.resolve({
      text: stopReason === "abort" ? generation.text.slice(0, generation.emitted) : generation.text,
      stopReason,
      completionTokens: generation.generated,
    });
    this.#wakeWaiters();
  }

  #wakeWaiters(): void {
    for (const wake of this.#waiting.splice(0)) wake();
  }
}

function commonPrefix(a: readonly number[], b: readonly number[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Whether `tokens` (past `from`) ends with `tail`. */
function endsWith(tokens: readonly number[], tail: readonly number[], from: number): boolean {
  if (!tail.length || tokens.length - from < tail.length) return false;
  const offset = tokens.length - tail.length;
  return tail.every((token, i) => tokens[offset + i] === token);
}
