/**
 * Log probabilities of a drawn token and of the most likely alternatives, from the raw logits of
 * one output of a decode step (before any sampler changed them), as OpenAI's `logprobs` reports
 * them: ln(softmax(logits)) over the whole vocabulary. Computed only when a request asks.
 */
import type { TokenLogprob } from "./generation.ts";

/** Ranks of the vocabulary read for one token: the drawn one and the `top` most likely. */
export interface LogprobRanks {
  /** ln P of a token id. */
  logprobOf(token: number): number;
  /** The `top` most likely tokens, most likely first, ties by lower id. */
  top: Array<{ token: number; logprob: number }>;
}

/**
 * Reads `logits` (one per token id) once: their log-sum-exp and the `top` largest.
 *
 * @example
 * ```ts
 * const ranks = rankLogits(new Float32Array([0, Math.log(3)]), 1);
 * ranks.top[0].token; // 1
 * ```
 */
export function rankLogits(logits: Float32Array, top: number): LogprobRanks {
  let max = -Infinity;
  for (const logit of logits) if (logit > max) max = logit;
  let sum = 0;
  for (const logit of logits) sum += Math.exp(logit - max);
  // Kept apart from `max`: added to a huge logit, ln(sum) would round away.
  const logSum = Math.log(sum);
  const best: number[] = [];
  if (top > 0) {
    for (let token = 0; token < logits.length; token++) {
      const logit = logits[token];
      if (best.length === top && logit <= logits[best[top - 1]]) continue;
      let at = best.length;
      while (at > 0 && logits[best[at - 1]] < logit) at--;
      best.splice(at, 0, token);
      if (best.length > top) best.pop();
    }
  }
  return {
    logprobOf: (token) => logits[token] - max - logSum,
    top: best.map((token) => ({ token, logprob: logits[token] - max - logSum })),
  };
}

/** The entry of a drawn token, its alternatives spelled by `pieceOf` (a token's bytes). */
export function tokenLogprob(
  ranks: LogprobRanks,
  token: number,
  pieceOf: (token: number) => Uint8Array,
): TokenLogprob {
  const spell = (id: number) => {
    const bytes = pieceOf(id);
    return { text: decoder.decode(bytes), bytes: [...bytes] };
  };
  return {
    ...spell(token),
    logprob: ranks.logprobOf(token),
    top: ranks.top.map((alternative) => ({
      ...spell(alternative.token),
      logprob: alternative.logprob,
    })),
  };
}

// Not fatal: a token may hold part of a character; `bytes` carries it whole, as OpenAI's does.
const decoder = new TextDecoder();
