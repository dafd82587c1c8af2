/**
 * What the decode loop (batch_decoder.ts) takes and reports: a generation's job, its progress
 * events and its result. Plain data, as they cross to and from the decode worker's thread.
 */
import type { SamplerOptions } from "./llama_native.ts";
import type { HiddenSegment } from "./hidden_segments.ts";
import type { StopText } from "./answer_text.ts";
import type { StopReason, TokenLogprob } from "./generation.ts";

/** One generation for `BatchDecoder.start`. */
export interface DecodeJob {
  /** Names the generation in {@link DecodeEvents}. */
  id: number;
  /** Prompt tokens (at least one). */
  prompt: readonly number[];
  maxTokens: number;
  sampler: SamplerOptions;
  /** Token sequences that end the generation (the chat template's end-of-turn markers). */
  stopTokenSequences: readonly (readonly number[])[];
  /** Texts that end the generation, left out of the answer. */
  stopTexts: readonly StopText[];
  /** Segments left out of the answer (the template's chain of thought). */
  hidden?: readonly HiddenSegment[];
  /** Report each token's log probability and this many alternatives; off when absent. */
  logprobs?: { top: number };
}

/** What a finished generation produced. */
export interface DecodeResult {
  text: string;
  stopReason: StopReason;
  completionTokens: number;
  /** One entry per answer token when the job asked (end-of-turn tokens left out). */
  logprobs?: TokenLogprob[];
}

/** Where `BatchDecoder` reports each generation's progress. */
export interface DecodeEvents {
  /**
   * A decoded piece of the answer, in order, with stop texts held back until ruled out, and the
   * log probabilities (when the job asked) of the tokens whose text has gone out with it.
   */
  text(id: number, text: string, logprobs?: TokenLogprob[]): void;
  /** The generation ended (`abort` after `BatchDecoder.cancel`). */
  end(id: number, result: DecodeResult): void;
  /** llama.cpp failed the generation's step or refused its grammar. */
  fail(id: number, reason: string): void;
}
