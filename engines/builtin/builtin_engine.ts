/**
 * The built-in `local-llm` engine: NLLB-200 (default), M2M100 and Marian models run on
 * @huggingface/transformers, loaded only from the models directory.
 *
 * The models live in a worker (`model_worker.ts`): every generate step is compute that would
 * otherwise hold the service's event loop, so health and pass-through frames would wait on it.
 * This module keeps what is cheap and about files (which model, is it installed, status) and
 * hands the worker segments and a target, never formats.
 */
import {
  type Engine,
  type EngineStatus,
  EngineUnavailableError,
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
import { modelWorker } from "./model_worker_client.ts";

// transformers.js and onnxruntime cost about 40 MB and 100 ms: they load in the worker with the
// first model, so a service that never translates locally (or only passes items through) never
// pays.
/** The wire id of the built-in engine in requests, settings and capabilities. */
export const BUILTIN_ENGINE_ID = "local-llm" satisfies EngineId;
/** Options of {@link createBuiltinEngine}. */
export interface BuiltinEngineOptions {
  /** `<models-dir>` holding `<org>/<name>/` folders in the hub layout. */
  modelsDir: string;
  /** Model used when a job names none (`Xenova/nllb-200-distilled-600M` in the settings). */
  defaultModel: string;
  /** Flags of the `tolk models pull` a missing-model hint names (the service's own folders). */
  pullFlags?: Record<string, string>;
  /** Hard cap on generated tokens per piece (default 512; tests use a handful). */
  maxNewTokens?: number;
  /** Largest input per piece in tokens, below the model's own limit (default 200). */
  maxInputTokens?: number;
  /** Pieces per padded sub-batch (default 8). */
  batchSize?: number;
  /** How long the list of installed models is reused by `status`, in ms (default 2000). */
  statusCacheMs?: number;
}

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
  const maxInputTokens = options.maxInputTokens ?? 200;
  const worker = modelWorker();
  /** The worker's key of each model this engine loaded (released on close). */
  const held = new Map<string, string>();
  // Listing walks every model folder: status asks often, so the list is reused for a while and
  // dropped as soon as a model loads or fails to.
  const installedList = createTimedCache(
    () => listInstalledModels(options.modelsDir),
    options.statusCacheMs ?? 2000,
  );
  // Models whose files look complete but did not load: not ready until a load succeeds.
  const broken = new Set<string>();

  /** Loads of this engine under way, so concurrent jobs load (and hold) a model once. */
  const loading = new Map<string, Promise<string>>();

  /** Makes sure `id` is loaded in the worker; returns its key there. */
  function load(id: string): Promise<string> {
    // A loaded model is in memory: its folder is not walked again on each request.
    const loaded = held.get(id);
    if (loaded && worker.has(loaded)) return Promise.resolve(loaded);
    let pending = loading.get(id);
    if (!pending) {
      pending = acquire(id).finally(() => loading.delete(id));
      loading.set(id, pending);
    }
    return pending;
  }

  async function acquire(id: string): Promise<string> {
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
      pullFlags: options.pullFlags,
    });
    if (hint !== null || !installed) {
      throw new EngineUnavailableError(BUILTIN_ENGINE_ID, hint ?? `model ${id} is not installed`);
    }
    try {
      const key = await worker.acquire(installed, maxInputTokens);
      held.set(id, key);
      installedList.invalidate();
      broken.delete(id);
      return key;
    } catch (error) {
      if (!broken.has(id)) installedList.invalidate();
      broken.add(id);
      const reason = `model ${id} failed to load: ${message(error)}`;
      throw new EngineUnavailableError(BUILTIN_ENGINE_ID, reason, { cause: error });
    }
  }

  /**
   * Items arrive as non-empty pieces with canonical source codes (`translation/plan.ts`); the
   * worker cuts, batches and generates them (`model_translation.ts`).
   */
  async function translate(job: TranslationJob): Promise<TranslationOutcome> {
    const model = job.model ?? options.defaultModel;
    const key = await load(model);
    const items = job.items.map(({ text, source }) => ({ text, source }));
    const modelJob = {
      items,
      target: job.target,
      alternatives: job.alternatives,
      maxNewTokens,
      batchSize,
    };
    return { model, items: await worker.translate(key, modelJob, job.signal) };
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
      pullFlags: options.pullFlags,
    }) ?? `model ${options.defaultModel} failed to load`;
    return { ready: false, models, hint };
  }

  async function close(): Promise<void> {
    const keys = [...held.values()];
    held.clear();
    await Promise.all(keys.map((key) => worker.release(key)));
  }

  return { id: BUILTIN_ENGINE_ID, name: "Built-in local model", status, translate, close };
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
