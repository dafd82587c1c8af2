/**
 * One decode loop for all running generations, as llama-server's slots: every step puts the next
 * token of each generating sequence (and a chunk of any waiting prompt) into one batch, so the
 * weights are read once per step whatever the number of requests.
 *
 * The sequences' cells are counted together ({@link NativeContext.cells}): in a unified cache (a
 * GPU's, or a large model's: kv_layout.ts) they share one generation's context, and when cells run
 * short, idle sequences' kept prompts go first, then the newest generation is put back to re-read
 * its tokens later; the oldest always advances. With a stream per sequence each holds a whole
 * generation, so the count never runs short.
 */
import type { NativeModel, NativeSampler } from "./llama_native.ts";
import type { BatchToken, NativeContext } from "./native_context.ts";
import type { CpuContention } from "./cpu_contention.ts";
import { AnswerText } from "./answer_text.ts";
import type { StopReason, TokenLogprob } from "./generation.ts";
import type { DecodeEvents, DecodeJob } from "./decode_job.ts";
import { rankLogits, tokenLogprob } from "./token_logprobs.ts";
import { chooseSlot, reusedPrefix } from "./prompt_reuse.ts";

interface Slot {
  index: number;
  /** Tokens whose cells this sequence holds, in order from position 0. */
  cached: number[];
  /** When a generation last took it (0: never). */
  usedAt: number;
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
  answer: AnswerText;
  logprobs?: TokenLogprob[];
}

let startCounter = 0;

/**
 * The decode loop over one native context with `sequences` sequences, one synchronous
 * {@link BatchDecoder.step} at a time: the decode worker (decode_worker.ts) calls it step after
 * step on its own thread, as llama-server's loop thread does.
 */
export class BatchDecoder {
  readonly #model: NativeModel;
  readonly #context: NativeContext;
  readonly #slots: Slot[];
  readonly #queued: DecodeJob[] = [];
  readonly #contention: CpuContention;
  readonly #events: DecodeEvents;
  #threads = 0;
  /** Threads of the next step; undefined after an idle spell (the load is read afresh). */
  #nextThreads?: number;

  /** `contention` says how many of the context's threads each step may use. */
  constructor(
    model: NativeModel,
    context: NativeContext,
    options: { sequences: number; contention: CpuContention; events: DecodeEvents },
  ) {
    this.#contention = options.contention;
    this.#events = options.events;
    this.#model = model;
    this.#context = context;
    this.#slots = Array.from({ length: options.sequences }, (_, index) => ({
      index,
      cached: [],
      usedAt: 0,
    }));
  }

  /** Threads the last step computed with (0 before the first). */
  get threads(): number {
    return this.#threads;
  }

  /** Whether any generation runs or waits for a sequence: {@link BatchDecoder.step} has work. */
  get busy(): boolean {
    return this.#queued.length > 0 || this.#slots.some((slot) => slot.generation);
  }

  /** Queues a generation; it takes a sequence at the next step where one is free. */
  start(job: DecodeJob): void {
    this.#queued.push(job);
  }

  /** Ends generation `id` with `abort` (its answer so far); unknown ids are ignored. */
  cancel(id: number): void {
    const queued = this.#queued.findIndex((job) => job.id === id);
    if (queued >= 0) {
      this.#queued.splice(queued, 1);
      this.#events.end(id, { text: "", stopReason: "abort", completionTokens: 0 });
      return;
    }
    const slot = this.#slots.find((slot) => slot.generation?.job.id === id);
    if (slot?.generation) this.#finish(slot.generation, "abort");
  }

  /** Ends every generation (`abort`); the context may go once this returns. */
  close(): void {
    for (const job of this.#queued.splice(0)) {
      this.#events.end(job.id, { text: "", stopReason: "abort", completionTokens: 0 });
    }
    for (const slot of this.#slots) {
      if (slot.generation) this.#finish(slot.generation, "abort");
    }
  }

  /**
   * Decodes one step of every running generation (synchronously: the caller's thread computes
   * with the pool), samples, and reports text and ends through the events. A failed step fails
   * the generations in it; their cells are dropped and later ones start clean.
   */
  step(): void {
    this.#admit();
    if (!this.#slots.some((slot) => slot.generation)) {
      this.#nextThreads = undefined;
      return;
    }
    try {
      let batch = this.#planStep();
      if (!batch.tokens.length) throw new Error("no generation fits the KV cache");
      this.#useThreads(this.#nextThreads ?? this.#contention.threadsFor(this.#context.threads));
      let status = this.#context.decode(batch.tokens);
      while (status === 1 && this.#evictNewest()) {
        batch = this.#planStep();
        status = this.#context.decode(batch.tokens);
      }
      if (status !== 0) throw new Error(`llama.cpp decode failed (status ${status})`);
      // The machine's load is read now, before this step's text wakes the clients that read it:
      // read after, every stream's reader counted as a competitor for a core.
      this.#nextThreads = this.#contention.threadsFor(this.#context.threads);
      this.#afterStep(batch.outputs, batch.fed);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      for (const slot of this.#slots) {
        if (slot.generation) {
          slot.generation.sampler.free();
          this.#events.fail(slot.generation.job.id, reason);
          slot.generation = undefined;
        }
        this.#context.forget(slot.index);
        slot.cached = [];
      }
    }
  }

  /** Queued generations take the free sequences, oldest first. */
  #admit(): void {
    while (this.#queued.length && this.#slots.some((slot) => !slot.generation)) {
      const job = this.#queued.shift()!;
      let sampler: NativeSampler;
      try {
        sampler = this.#model.createSampler(job.sampler);
      } catch (error) {
        this.#events.fail(job.id, error instanceof Error ? error.message : String(error));
        continue;
      }
      const slot = this.#pickSlot(job.prompt);
      const started = ++startCounter;
      slot.usedAt = started;
      const generation: Generation = {
        job,
        slot,
        tokens: [...job.prompt],
        generated: 0,
        started,
        sampler,
        logprobs: job.logprobs && [],
        answer: new AnswerText(
          { stopTexts: job.stopTexts, hidden: job.hidden ?? [] },
          (piece, tokens) => this.#events.text(job.id, piece, logprobsOf(generation, tokens)),
        ),
      };
      slot.generation = generation;
    }
  }

  /** The free slot for `prompt`, holding the part of it worth keeping (prompt_reuse.ts). */
  #pickSlot(prompt: readonly number[]): Slot {
    const free = this.#slots.filter((slot) => !slot.generation);
    const generating = this.#context.streams ? this.#slots.filter((slot) => slot.generation) : [];
    const { slot, shared } = chooseSlot(free, prompt, generating.map((slot) => slot.index));
    // At least the last prompt token is read again: its logits pick the first answer token. With a
    // stream per slot a sequence's cells start at cell 0, so a long prompt can start on an attention
    // tile's boundary (prompt_reuse.ts); in a shared stream its cells lie wherever cells were free.
    const keep = this.#context.streams
      ? reusedPrefix(shared, prompt.length, this.#model.embeddingSize)
      : Math.min(shared, prompt.length - 1);
    if (keep < slot.cached.length) {
      this.#context.forget(slot.index, keep);
      slot.cached.length = keep;
    }
    return slot;
  }

  /**
   * The next step's tokens: one per generating sequence first (oldest first), then prompt chunks,
   * as many as the batch and the free cells take, handed over in sequence order. A prompt starts
   * only when all of it fits in the free cells, so a full cache finishes what it runs instead of
   * thrashing.
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
    let planned = 0;
    for (const generation of generations) {
      const pending = pendingOf(generation);
      const started = generation.slot.cached.length > 0 && pending > 1; // a prompt part-read
      if (pending > 1 && !started && pending > free - generations.length) continue;
      const count = Math.min(pending, this.#context.batchSize - planned, free);
      if (count <= 0) continue;
      free -= count;
      planned += count;
      fed.set(generation, count);
    }
    // The batch goes in sequence order: with a KV stream per sequence, llama.cpp puts into one
    // micro-batch only sequences whose ids follow each other in the batch (`split_equal`), and
    // each further micro-batch reads all the weights again (BENCHMARKS.md, fifteenth session).
    const inSequenceOrder = [...fed].sort(([a], [b]) => a.slot.index - b.slot.index);
    for (const [generation, count] of inSequenceOrder) {
      const { slot } = generation;
      const pending = pendingOf(generation);
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
      // Read before the draw: the raw logits, whatever the samplers then make of them.
      const ranks = generation.logprobs &&
        rankLogits(
          this.#context.logitsAt(index, this.#model.vocabSize),
          generation.job.logprobs!.top,
        );
      const token = generation.sampler.sample(this.#context, index);
      if (ranks) {
        generation.logprobs!.push(tokenLogprob(ranks, token, (t) => this.#model.pieceOf(t)));
      }
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
    if (this.#model.isEndOfGeneration(token)) {
      generation.logprobs?.pop(); // not part of the answer
      return "endOfTurn";
    }
    for (const sequence of job.stopTokenSequences) {
      if (endsWith(generation.tokens, sequence, job.prompt.length)) {
        generation.logprobs?.splice(-sequence.length);
        return "endOfTurn";
      }
    }
    return generation.answer.push(this.#model.pieceOf(token));
  }

  #finish(generation: Generation, stopReason: StopReason): void {
    const { slot, answer } = generation;
    if (stopReason !== "abort") answer.flush();
    generation.sampler.free();
    slot.generation = undefined;
    this.#events.end(generation.job.id, {
      text: stopReason === "abort" ? answer.sent : answer.text,
      stopReason,
      completionTokens: generation.generated,
      ...(generation.logprobs && { logprobs: logprobsOf(generation, answer.tokens) }),
    });
  }
}

/**
 * The logprobs of the generation's answer tokens `tokens` (by index among those drawn): tokens
 * of hidden segments and the token a stop text cut into are not in the answer (answer_text.ts).
 */
function logprobsOf(
  generation: Generation,
  tokens: readonly number[],
): TokenLogprob[] | undefined {
  const { logprobs } = generation;
  // A stop token sequence's tokens were drawn and pushed before it was seen, then dropped.
  return logprobs && tokens.flatMap((token) => logprobs[token] ?? []);
}

/** Whether `tokens` (past `from`) ends with `tail`. */
function endsWith(tokens: readonly number[], tail: readonly number[], from: number): boolean {
  if (!tail.length || tokens.length - from < tail.length) return false;
  const offset = tokens.length - tail.length;
  return tail.every((token, i) => tokens[offset + i] === token);
}
