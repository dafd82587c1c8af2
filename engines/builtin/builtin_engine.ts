/**
 * The built-in `local-llm` engine: NLLB-200 (default), M2M100 and Marian models run in-process
 * on @huggingface/transformers, loaded only from the models directory.
 *
 * A job is cut into pieces (items split at sentence boundaries when longer than the model's
 * window), grouped by source language into padded sub-batches, generated with per-row end-token
 * cuts and confidences, and put back together in item order.
 */
import {
  type Engine,
  EngineFailedError,
  type EngineStatus,
  EngineUnavailableError,
  type TranslatedItem,
  type TranslationItem,
  type TranslationJob,
  type TranslationOutcome,
} from "../engine.ts";
import type { EngineId } from "../../schemas/languages.ts";
import {
  inspectModel,
  isModelId,
  listInstalledModels,
  missingModelHint,
} from "../../models/model_store.ts";
import { MAX_ALTERNATIVES } from "../../schemas/translation.ts";
import type { ModelTarget } from "./language_codes.ts";
import { toChineseScript } from "./script_conversion.ts";
import { type ChunkedText, joinChunks, splitText } from "./sentence_chunks.ts";
import type { GeneratedRow } from "./seq2seq_generation.ts";
import { sequenceConfidence } from "./sequence_confidence.ts";
import type { TranslationModel } from "./translation_model.ts";

// transformers.js and onnxruntime cost about 40 MB and 100 ms: they load with the first model,
// so a service that never translates locally (or only passes items through) never pays.
/** The wire id of the built-in engine in requests, settings and capabilities. */
export const BUILTIN_ENGINE_ID = "local-llm" satisfies EngineId;

const modelRuntime = () => import("./model_runtime.ts");

/** Options of {@link createBuiltinEngine}. */
export interface BuiltinEngineOptions {
  /** `<models-dir>` holding `<org>/<name>/` folders in the hub layout. */
  modelsDir: string;
  /** Model used when a job names none (`Xenova/nllb-200-distilled-600M` in the settings). */
  defaultModel: string;
  /** Hard cap on generated tokens per piece (default 512; tests use a handful). */
  maxNewTokens?: number;
  /** Largest input per piece in tokens, below the model's own limit (default 200). */
  maxInputTokens?: number;
  /** Pieces per padded sub-batch (default 8). */
  batchSize?: number;
  /** How long the list of installed models is reused by `status`, in ms (default 2000). */
  statusCacheMs?: number;
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

const ALTERNATIVE_SAMPLES = MAX_ALTERNATIVES;

/**
 * Creates the built-in engine. Nothing is loaded until the first translation.
 *
 * @example
 * ```ts
 * const engine = createBuiltinEngine({
 *   modelsDir: "/home/me/.local/share/tolk/models",
 *   defaultModel: "Xenova/nllb-200-distilled-600M",
 * });
 * ```
 */
export function createBuiltinEngine(options: BuiltinEngineOptions): Engine {
  const maxNewTokens = options.maxNewTokens ?? 512;
  const batchSize = options.batchSize ?? 8;
  const loaded = new Map<string, Promise<TranslationModel>>();
  const ready = new Map<string, TranslationModel>();
  // Listing walks every model folder: status asks often, so the list is reused for a while and
  // dropped as soon as a model loads or fails to.
  const installedList = createTimedCache(
    () => listInstalledModels(options.modelsDir),
    options.statusCacheMs ?? 2000,
  );
  // Models whose files look complete but did not load: not ready until a load succeeds.
  const broken = new Set<string>();

  async function model(id: string): Promise<TranslationModel> {
    // A loaded model is in memory: its folder is not walked again on each request.
    const inMemory = ready.get(id);
    if (inMemory) return inMemory;
    if (!isModelId(id)) {
      throw new EngineUnavailableError(
        BUILTIN_ENGINE_ID,
        `"${id}" is not a model id (expected org/name)`,
      );
    }
    const installed = await inspectModel(options.modelsDir, id);
    const hint = missingModelHint(id, installed, {
      modelsDir: options.modelsDir,
      isDefault: id === options.defaultModel,
    });
    if (hint !== null || !installed) {
      throw new EngineUnavailableError(BUILTIN_ENGINE_ID, hint ?? `model ${id} is not installed`);
    }
    let pending = loaded.get(id);
    if (!pending) {
      pending = modelRuntime().then(({ loadTranslationModel }) =>
        loadTranslationModel(installed, { maxInputTokens: options.maxInputTokens ?? 200 })
      );
      loaded.set(id, pending);
    }
    try {
      const loadedModel = await pending;
      if (!ready.has(id)) installedList.invalidate();
      ready.set(id, loadedModel);
      broken.delete(id);
      return loadedModel;
    } catch (error) {
      loaded.delete(id);
      if (!broken.has(id)) installedList.invalidate();
      broken.add(id);
      const reason = `model ${id} failed to load: ${message(error)}`;
      throw new EngineUnavailableError(BUILTIN_ENGINE_ID, reason, { cause: error });
    }
  }

  /**
   * Items arrive as non-empty pieces with canonical source codes (`translation/plan.ts`). An item
   * in a language the model cannot read comes back as it is, so one odd item never fails its
   * neighbours; only a job with nothing the model can read fails.
   */
  async function translate(job: TranslationJob): Promise<TranslationOutcome> {
    const loadedModel = await model(job.model ?? options.defaultModel);
    const target = loadedModel.scheme.target(job.target);
    if (!target) throw unsupported(loadedModel.id, "into", job.target);
    const items = job.items.map((item, index) => plan(loadedModel, item, index));
    const unreadable = job.items.find((_, index) => items[index] === null);
    if (unreadable && items.every((item) => item === null)) {
      throw unsupported(loadedModel.id, "from", unreadable.source);
    }
    const pieces = items.flatMap((item) => item?.pieces ?? []);
    for (const batch of subBatches(pieces, batchSize)) {
      job.signal?.throwIfAborted();
      await runBatch(loadedModel, batch, { ...job, target, cap: maxNewTokens });
    }
    return {
      model: loadedModel.id,
      items: items.map((item, index) =>
        item
          ? assemble(item, target)
          : { text: job.items[index].text, confidence: 0, alternatives: [] }
      ),
    };
  }

  /** The item cut into model-sized pieces, or null when the model cannot read its language. */
  function plan(model: TranslationModel, item: TranslationItem, index: number): PlannedItem | null {
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

  async function status(): Promise<EngineStatus> {
    const installed = await installedList.get();
    const models = installed.map((entry) => ({
      id: entry.id,
      name: entry.id,
      ready: entry.valid && !broken.has(entry.id),
    }));
    const preferred = models.find((entry) => entry.id === options.defaultModel);
    const defaultReady = preferred?.ready ?? false;
    if (defaultReady) return { ready: true, models };
    const model = installed.find((entry) => entry.id === options.defaultModel) ?? null;
    const hint = missingModelHint(options.defaultModel, model, {
      modelsDir: options.modelsDir,
      isDefault: true,
    }) ?? `model ${options.defaultModel} failed to load`;
    return { ready: false, models, hint };
  }

  async function close(): Promise<void> {
    const pending = [...loaded.values()];
    loaded.clear();
    ready.clear();
    const models = await Promise.allSettled(pending);
    await Promise.all(
      models.map((entry) => entry.status === "fulfilled" ? entry.value.dispose() : undefined),
    );
  }

  return { id: BUILTIN_ENGINE_ID, name: "Built-in local model", status, translate, close };
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
  const { generateRows, random } = await modelRuntime();
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
  for (let sample = 0; sample < ALTERNATIVE_SAMPLES; sample++) {
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

function unsupported(model: string, direction: "from" | "into", language: string) {
  return new EngineFailedError(
    BUILTIN_ENGINE_ID,
    `model ${model} cannot translate ${direction} "${language}"`,
  );
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A value recomputed at most every `ttlMs`, or at once after `invalidate`. */
function createTimedCache<T>(compute: () => Promise<T>, ttlMs: number) {
  let cached: { at: number; value: Promise<T> } | undefined;
  return {
    get(): Promise<T> {
      if (cached && Date.now() - cached.at < ttlMs) return cached.value;
      const value = compute();
      cached = { at: Date.now(), value };
      value.catch(() => cached = undefined);
      return value;
    },
    invalidate() {
      cached = undefined;
    },
  };
}
