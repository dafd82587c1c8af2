/**
 * One job through a loaded model, inside the model worker (`model_worker.ts`): items cut into
 * pieces (split at sentence boundaries when longer than the model's window), grouped by source
 * language into padded sub-batches, generated with per-row end-token cuts and confidences, and
 * put back together in item order.
 */
import { EngineUnavailableError, type TranslatedItem } from "../engine.ts";
import type { LanguageCode } from "../../schemas/languages.ts";
import { MAX_ALTERNATIVES } from "../../schemas/translation.ts";
import type { ModelTarget } from "./language_codes.ts";
import { toChineseScript } from "./script_conversion.ts";
import { type ChunkedText, joinChunks, splitText } from "./sentence_chunks.ts";
import { type GeneratedRow, generateRows } from "./seq2seq_generation.ts";
import { sequenceConfidence } from "./sequence_confidence.ts";
import type { TranslationModel } from "./translation_model.ts";
import { random } from "@huggingface/transformers";

/** The built-in engine's id, repeated here so the worker does not load the engine module. */
const ENGINE = "local-llm";

/** What the engine hands the worker: segments and a target, never formats. */
export interface ModelJob {
  /** Non-empty texts with canonical source codes (`translation/plan.ts`). */
  items: { text: string; source: string }[];
  target: LanguageCode;
  /** Ask for up to 3 distinct alternatives per item. */
  alternatives: boolean;
  /** Hard cap on generated tokens per piece. */
  maxNewTokens: number;
  /** Pieces per padded sub-batch. */
  batchSize: number;
}

/** One piece of one item, on its way through the model. */
interface Piece {
  item: number;
  text: string;
  source: string;
  tokens: number;
  result?: GeneratedRow & { text: string };
  alternatives: string[];
}

/** An item that needs the model, and how it was cut. */
interface PlannedItem {
  chunked: ChunkedText;
  pieces: Piece[];
}

/**
 * Translates `job` with `model`. An item in a language the model cannot read comes back as it is,
 * so one odd item never fails its neighbours; only a job with nothing the model can read fails.
 *
 * @throws {EngineUnavailableError} when the model cannot translate into the target, or from any
 *   item.
 * @throws the signal's reason once it is aborted (checked between sub-batches and steps).
 */
export async function translateWithModel(
  model: TranslationModel,
  job: ModelJob,
  signal?: AbortSignal,
): Promise<TranslatedItem[]> {
  const target = model.scheme.target(job.target);
  if (!target) throw unsupported(model.id, "into", job.target);
  const items = job.items.map((item, index) => plan(model, item, index));
  const unreadable = job.items.find((_, index) => items[index] === null);
  if (unreadable && items.every((item) => item === null)) {
    throw unsupported(model.id, "from", unreadable.source);
  }
  const pieces = items.flatMap((item) => item?.pieces ?? []);
  for (const batch of subBatches(pieces, job.batchSize)) {
    signal?.throwIfAborted();
    await runBatch(model, batch, {
      target,
      alternatives: job.alternatives,
      signal,
      cap: job.maxNewTokens,
    });
  }
  return items.map((item, index) =>
    item ? assemble(item, target) : { text: job.items[index].text, confidence: 0, alternatives: [] }
  );
}

/** The item cut into model-sized pieces, or null when the model cannot read its language. */
function plan(
  model: TranslationModel,
  item: { text: string; source: string },
  index: number,
): PlannedItem | null {
  const code = model.scheme.source(item.source);
  if (code === null) return null;
  const fits = (piece: string) => model.countTokens(piece) <= model.window;
  const chunked = splitText(item.text, item.source, fits);
  const pieces = chunked.chunks.map((chunk): Piece => ({
    item: index,
    text: chunk.text,
    source: code,
    tokens: model.countTokens(chunk.text),
    alternatives: [],
  }));
  return { chunked, pieces };
}

/** Same-source pieces of similar length together, so padding stays small. */
function subBatches(pieces: readonly Piece[], size: number): Piece[][] {
  const sorted = [...pieces].sort((a, b) =>
    a.source.localeCompare(b.source) || a.tokens - b.tokens
  );
  const batches: Piece[][] = [];
  for (const piece of sorted) {
    const last = batches.at(-1);
    if (last && last.length < size && last[0].source === piece.source) last.push(piece);
    else batches.push([piece]);
  }
  return batches;
}

/** How one sub-batch is run. */
interface BatchOptions {
  target: ModelTarget;
  alternatives: boolean;
  signal?: AbortSignal;
  /** Hard cap on new tokens per piece. */
  cap: number;
}

async function runBatch(model: TranslationModel, batch: Piece[], options: BatchOptions) {
  const { target, alternatives, signal, cap } = options;
  const encoded = model.encode(batch.map((piece) => piece.text), batch[0].source, target);
  // The budget follows each piece's own length: a model that never ends must still stop, and a
  // row's text must not depend on its neighbours in the batch.
  const maxNewTokens = batch.map((piece) => Math.min(cap, 3 * piece.tokens + 10));
  const request = { ...encoded, maxNewTokens, signal };
  const rows = await generateRows(model.model, request);
  rows.forEach((row, index) => batch[index].result = { ...row, text: model.decode(row.ids) });
  if (!alternatives) return;
  // Beam search keeps one hypothesis in transformers.js 4.3.1, so alternatives are samples,
  // seeded so that the same request gives the same alternatives.
  random.seed(batch.reduce((seed, piece) => seed + piece.tokens, 0));
  for (let sample = 0; sample < MAX_ALTERNATIVES; sample++) {
    const sampled = await generateRows(model.model, { ...request, sample: true });
    sampled.forEach((row, index) => batch[index].alternatives.push(model.decode(row.ids)));
  }
}

function assemble(item: PlannedItem, target: ModelTarget): TranslatedItem {
  const finish = (text: string) => target.script ? toChineseScript(text, target.script) : text;
  const text = finish(joinChunks(item.chunked, item.pieces.map((piece) => piece.result!.text)));
  const candidates = Array.from(
    { length: item.pieces[0].alternatives.length },
    (_, sample) =>
      finish(joinChunks(item.chunked, item.pieces.map((piece) => piece.alternatives[sample]))),
  );
  // Which of them a result keeps (distinct, not the text, at most 3) is decided by the caller.
  return {
    text,
    confidence: sequenceConfidence(item.pieces.map((piece) => piece.result!)),
    alternatives: [...new Set(candidates)],
  };
}

/**
 * A pair the model does not do: the engine cannot take this job (another engine, or another
 * model, may), not a failure of the service — 503 naming the model, never a 500.
 */
function unsupported(model: string, direction: "from" | "into", language: string) {
  return new EngineUnavailableError(
    ENGINE,
    `model ${model} cannot translate ${direction} "${language}"`,
  );
}
