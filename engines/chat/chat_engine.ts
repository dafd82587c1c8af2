/**
 * One Engine over any chat backend: readiness from a cached model-list probe, model choice, and
 * translation through the shared protocol. engine-one, engine-two and compatible-api differ only
 * in the backend they pass in.
 */
import type { EngineId } from "../../schemas/languages.ts";
import {
  type Engine,
  type EngineStatus,
  EngineUnavailableError,
  type TranslationJob,
  type TranslationOutcome,
} from "../engine.ts";
import { createStatusCache, type ListedModel, type ProbeResult } from "./backend_status.ts";
import { type CompleteFn, translateBatches } from "./batch_translation.ts";

/** What an engine needs from its backend. */
export interface ChatBackend {
  /**
   * The models the backend has, with the short probe timeout.
   *
   * @throws {EngineUnavailableError} when the backend cannot be reached.
   */
  listModels(): Promise<ListedModel[]>;
  /** One structured-output chat request (see {@link CompleteFn}). */
  complete: CompleteFn;
  /**
   * Whether the backend reads `wanted` (a settings or request model name) as the listed model
   * `listed`; by default only when they are equal.
   */
  sameModel?(wanted: string, listed: string): boolean;
  /**
   * What the user can do about `wanted` not being listed, said after the models the backend has
   * (Ollama: the `ollama pull` command that fetches it); nothing by default.
   */
  missingModelRemedy?(wanted: string): string;
}

/** Options of {@link createChatEngine}. */
export interface ChatEngineOptions {
  id: EngineId;
  name: string;
  /** Null when the engine is not configured (no base URL): listed, never ready. */
  backend: ChatBackend | null;
  /** Model used when a job names none; null picks the first chat model the backend lists. */
  defaultModel: string | null;
  /** The model's context in tokens, for packing batches. */
  contextTokens: number;
  maxBatchItems: number;
  temperature: number;
  /** How long a probe result is reused, in ms. */
  statusCacheMs: number;
}

/** The settings keys every chat engine section has. */
export interface SharedChatSettings {
  model: string | null;
  max_batch_items: number;
  temperature: number;
  status_cache_ms: number;
}

/** The {@link ChatEngineOptions} that come straight from a settings section. */
export function sharedEngineOptions(
  settings: SharedChatSettings,
): Pick<ChatEngineOptions, "defaultModel" | "maxBatchItems" | "temperature" | "statusCacheMs"> {
  return {
    defaultModel: settings.model,
    maxBatchItems: settings.max_batch_items,
    temperature: settings.temperature,
    statusCacheMs: settings.status_cache_ms,
  };
}

/**
 * Creates a chat engine.
 *
 * @example
 * ```ts
 * const engine = createChatEngine({
 *   id: "engine-two", name: "Desktop model server (LM Studio)",
 *   backend: createChatCompletionsBackend({ ... }), defaultModel: null,
 *   contextTokens: 4096, maxBatchItems: 16, temperature: 0, statusCacheMs: 3000,
 * });
 * ```
 */
export function createChatEngine(options: ChatEngineOptions): Engine {
  const backend = options.backend;
  const status = backend
    ? createStatusCache(() => backend.listModels(), { ttlMs: options.statusCacheMs })
    : null;
  const sameModel = backend?.sameModel ?? ((wanted: string, listed: string) => wanted === listed);

  async function probe(): Promise<ProbeResult | null> {
    return status ? await status.get() : null;
  }

  async function engineStatus(): Promise<EngineStatus> {
    const result = await probe();
    // A hint only for an engine the user set up (one without base_url is simply not in use).
    if (!result) return { ready: false, models: null };
    if (!result.reachable) return { ready: false, models: null, hint: result.reason };
    const models = result.models.map(({ id, unavailable }) => ({
      id,
      name: id,
      ready: !unavailable,
    }));
    const choice = chooseModel(undefined, result.models);
    return "model" in choice
      ? { ready: true, models }
      : { ready: false, models, hint: choice.reason };
  }

  async function translate(job: TranslationJob): Promise<TranslationOutcome> {
    const result = await probe();
    if (!backend || !result) {
      throw new EngineUnavailableError(options.id, "no base_url is configured in the settings");
    }
    if (!result.reachable) {
      throw result.busy ??
        new EngineUnavailableError(options.id, result.reason, { detail: result.detail });
    }
    const choice = chooseModel(job.model, result.models);
    if ("reason" in choice) throw new EngineUnavailableError(options.id, choice.reason);
    const { model } = choice;
    try {
      const items = await translateBatches(job, backend.complete, {
        engine: options.id,
        model,
        contextTokens: options.contextTokens,
        maxBatchItems: options.maxBatchItems,
        temperature: options.temperature,
      });
      return { model, items };
    } catch (error) {
      // The backend went away since the last probe: let capabilities see it at once.
      if (error instanceof EngineUnavailableError) status?.invalidate();
      throw error;
    }
  }

  /**
   * The model a job naming `requested` (else the settings' model, else the first chat model the
   * backend can serve) would use, or why there is none. Readiness asks the same question, so
   * that `ready` means a translation would be attempted right now.
   */
  function chooseModel(
    requested: string | undefined,
    models: ListedModel[],
  ): { model: string } | { reason: string } {
    const wanted = requested ?? options.defaultModel ?? undefined;
    // Without a choice, the first model that can serve (embedding models cannot: see
    // embedding_models.ts), else the first, to say why it cannot.
    const listed = wanted === undefined
      ? models.find((model) => !model.unavailable) ?? models[0]
      : models.find((model) => sameModel(wanted, model.id));
    if (listed?.unavailable) {
      return { reason: `model "${listed.id}" is not available (${listed.unavailable})` };
    }
    // The name as the user wrote it: the backend reads it as the listed one.
    if (listed) return { model: wanted ?? listed.id };
    const ids = models.slice(0, 10).map((model) => model.id);
    const inventory = ids.length ? `it has: ${ids.join(", ")}` : "it has no model";
    const remedy = wanted && backend?.missingModelRemedy?.(wanted);
    return {
      reason: wanted
        ? `model "${wanted}" is not available (${inventory})${remedy ? `; ${remedy}` : ""}`
        : `no chat model (${inventory})`,
    };
  }

  return { id: options.id, name: options.name, status: engineStatus, translate };
}
