/**
 * One padded batch through an encoder-decoder model's `generate()`, with what transformers.js
 * 4.3.1 leaves out: each row is cut at its own first end token (generate() keeps every row
 * running until all rows stop together), and each row gets its sequence log-probability.
 */
import {
  LogitsProcessor,
  LogitsProcessorList,
  type PreTrainedModel,
  StoppingCriteria,
  StoppingCriteriaList,
  type Tensor,
} from "@huggingface/transformers";
export { sequenceConfidence } from "./sequence_confidence.ts";

/** What to generate for one padded batch. */
export interface GenerationRequest {
  /** Tokenizer output for the batch (`input_ids`, `attention_mask`), right-padded. */
  inputs: Record<string, Tensor>;
  /** Each row's own cap on new tokens (counting a forced first token); the batch runs to the
   * largest and every row is cut at its own. */
  maxNewTokens: readonly number[];
  /** Target-language token forced as the first generated token (NLLB, M2M100). */
  forcedBosTokenId?: number;
  /** Sample (temperature 0.7, top 20) instead of greedy decoding, for alternatives. */
  sample?: boolean;
  /** Overrides the model's end tokens (tests use this to make a random model "finish"). */
  eosTokenIds?: readonly number[];
  /** Stops generation at the next step; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** One generated row. */
export interface GeneratedRow {
  /** Generated ids after the decoder start, cut before the first end token and at the row's cap. */
  ids: number[];
  /** Sum of the natural-log probabilities of the tokens the model chose (forced ones excluded,
   * the end token included). */
  logProb: number;
  /** How many tokens `logProb` sums over. */
  scored: number;
}

/**
 * Generates a batch and returns one row per input row, in order.
 *
 * @throws {Error} whatever onnxruntime or transformers.js throws for a bad model or input, or
 *   the signal's reason once it is aborted.
 */
export async function generateRows(
  model: PreTrainedModel,
  request: GenerationRequest,
): Promise<GeneratedRow[]> {
  const recorder = new ChosenTokenRecorder();
  const processors = new LogitsProcessorList();
  processors.push(recorder);
  const forced = request.forcedBosTokenId !== undefined;
  const skip = forced ? 1 : 0;
  const eos = new Set(request.eosTokenIds ?? endTokenIds(model));
  const criteria = new StoppingCriteriaList();
  criteria.push(new RowsDone(eos, request.maxNewTokens, skip, request.signal));
  const sequences = await model.generate({
    ...request.inputs,
    max_new_tokens: Math.max(1, ...request.maxNewTokens),
    num_beams: 1,
    do_sample: request.sample ?? false,
    // Milder than the default 1.0 / top 50: alternatives should read as translations.
    ...(request.sample ? { temperature: 0.7, top_k: 20 } : {}),
    ...(forced ? { forced_bos_token_id: request.forcedBosTokenId } : {}),
    ...(request.eosTokenIds ? { eos_token_id: [...request.eosTokenIds] } : {}),
    logits_processor: processors,
    stopping_criteria: criteria,
  }) as Tensor;
  request.signal?.throwIfAborted();

  const rows = (sequences.tolist() as bigint[][]).map((row) => row.map(Number));
  const logProbs = recorder.finish(rows);
  return rows.map((row, index) => {
    // Position 0 is the decoder start token, which was not generated.
    const generated = row.slice(1, 1 + request.maxNewTokens[index]);
    const end = generated.findIndex((id, position) => position >= skip && eos.has(id));
    const kept = end === -1 ? generated : generated.slice(0, end);
    const scoredUntil = end === -1 ? generated.length : end + 1;
    let logProb = 0;
    for (let step = skip; step < scoredUntil; step++) logProb += logProbs[index][step];
    return { ids: kept, logProb, scored: Math.max(0, scoredUntil - skip) };
  });
}

function endTokenIds(model: PreTrainedModel): number[] {
  const config = (model as unknown as { generation_config?: { eos_token_id?: unknown } })
    .generation_config;
  const eos = config?.eos_token_id ?? (model.config as { eos_token_id?: unknown }).eos_token_id;
  return (Array.isArray(eos) ? eos : [eos]).filter((id): id is number => typeof id === "number");
}

/**
 * Done per row once it has produced an end token anywhere (transformers.js only looks at the
 * last token, so a batch whose rows end at different steps would run to the longest budget) or
 * reached its own budget; all rows at once when the job is aborted.
 */
class RowsDone extends StoppingCriteria {
  constructor(
    readonly eos: ReadonlySet<number>,
    readonly budgets: readonly number[],
    readonly skip: number,
    readonly signal?: AbortSignal,
  ) {
    super();
  }

  override _call(inputIds: (number | bigint)[][]): boolean[] {
    const aborted = this.signal?.aborted ?? false;
    return inputIds.map((row, index) => {
      // Position 0 is the decoder start token.
      const generated = row.length - 1;
      if (aborted || generated >= this.budgets[index]) return true;
      for (let position = 1 + this.skip; position < row.length; position++) {
        if (this.eos.has(Number(row[position]))) return true;
      }
      return false;
    });
  }
}

/**
 * Runs last among the logits processors and remembers each step's final scores, so the
 * probability of the token the sampler then chose can be read at the next step (or at the end).
 * Only the latest step is kept: a step is batch × vocabulary floats.
 */
class ChosenTokenRecorder extends LogitsProcessor {
  #previous: { logits: Float32Array; logSumExp: number[]; vocab: number } | null = null;
  #logProbs: number[][] = [];

  override _call(inputIds: bigint[][], logits: Tensor): Tensor {
    this.#collect(inputIds.map((row) => Number(row[row.length - 1])));
    const [batch, vocab] = [logits.dims[0], logits.dims[logits.dims.length - 1]];
    const data = logits.data as Float32Array;
    const logSumExp = Array.from(
      { length: batch },
      (_, row) => logSumExpOf(data, row * vocab, vocab),
    );
    this.#previous = { logits: data.slice(), logSumExp, vocab };
    return logits;
  }

  /** Scores the last chosen tokens and returns per-row log-probabilities by step. */
  finish(rows: number[][]): number[][] {
    this.#collect(rows.map((row) => row[row.length - 1]));
    return this.#logProbs;
  }

  #collect(chosen: number[]): void {
    const previous = this.#previous;
    if (previous === null) return;
    chosen.forEach((token, row) => {
      const logit = previous.logits[row * previous.vocab + token];
      (this.#logProbs[row] ??= []).push(logit - previous.logSumExp[row]);
    });
    this.#previous = null;
  }
}

function logSumExpOf(data: Float32Array, start: number, length: number): number {
  let max = -Infinity;
  for (let i = start; i < start + length; i++) if (data[i] > max) max = data[i];
  if (max === -Infinity) return max;
  let sum = 0;
  for (let i = start; i < start + length; i++) sum += Math.exp(data[i] - max);
  return max + Math.log(sum);
}
