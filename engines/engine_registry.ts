/**
 * Every engine of `tolk serve`, built from the settings in one place.
 */
import { ENGINE_IDS, type EngineId } from "../schemas/languages.ts";
import type { Settings } from "../schemas/settings.ts";
import type { Engine } from "./engine.ts";
import { EnginePipeline } from "./engine_pipeline.ts";
import type { EngineQueueOptions } from "./engine_queue.ts";
import { BUILTIN_ENGINE_ID, createBuiltinEngine } from "./builtin/builtin_engine.ts";
import { COMPATIBLE_API_ENGINE_ID, createCompatibleApiEngine } from "./chat/compatible_api.ts";
import { createLmStudioEngine, LM_STUDIO_ENGINE_ID } from "./chat/lm_studio.ts";
import { createOllamaEngine, OLLAMA_ENGINE_ID } from "./chat/ollama.ts";

/** What the engines need besides the settings. */
export interface EngineRegistryOptions {
  modelsDir: string;
  /** Flags of the `tolk models pull` the built-in engine's missing-model hint names. */
  pullFlags?: Record<string, string>;
  /** Caps generated tokens of the built-in model (tests use small fixtures). */
  maxNewTokens?: number;
  /** Queue of the built-in model; default {@link BUILTIN_QUEUE}. */
  localQueue?: EngineQueueOptions;
  /** How long the pipeline reuses engine statuses, in ms (the pipeline's default when unset). */
  statusTtlMs?: number;
}

/**
 * The built-in model's queue: one job at a time (it already uses every core); a job waits only if
 * it can be expected to start within 150 ms, or has fewer than 2 jobs ahead, or only its own
 * connection's jobs ahead; never more than 32 wait. Beyond: 503 `engine_unavailable` with
 * Retry-After at once, so the frames a WebSocket client sent after it are not held behind a long
 * queue (README "WebSocket", BENCHMARKS.md "WebSocket load").
 */
export const BUILTIN_QUEUE: EngineQueueOptions = {
  concurrency: 1,
  maxWaiting: 32,
  waitBudgetMs: 150,
  minWaiting: 2,
};

/** How each engine is built from its section of the settings. */
const BUILDERS: Record<EngineId, (settings: Settings, options: EngineRegistryOptions) => Engine> = {
  [BUILTIN_ENGINE_ID]: (settings, options) =>
    createBuiltinEngine({
      modelsDir: options.modelsDir,
      defaultModel: settings.engines[BUILTIN_ENGINE_ID].model,
      pullFlags: options.pullFlags,
      maxNewTokens: options.maxNewTokens,
    }),
  [OLLAMA_ENGINE_ID]: (settings) => createOllamaEngine(settings.engines[OLLAMA_ENGINE_ID]),
  [LM_STUDIO_ENGINE_ID]: (settings) => createLmStudioEngine(settings.engines[LM_STUDIO_ENGINE_ID]),
  [COMPATIBLE_API_ENGINE_ID]: (settings) =>
    createCompatibleApiEngine(settings.engines[COMPATIBLE_API_ENGINE_ID]),
};

/** Builds every engine the service offers, in no particular order. */
export function createEngines(settings: Settings, options: EngineRegistryOptions): Engine[] {
  return ENGINE_IDS.map((id) => BUILDERS[id](settings, options));
}

/**
 * Keeps a running pipeline in step with the settings: the returned function rebuilds only the
 * engines whose section changed since the last call (a built-in model stays loaded when only a
 * server address moved) and applies the order.
 *
 * @example
 * ```ts
 * const applyEngineSettings = engineSettingsSync(pipeline, settings, { modelsDir });
 * applyEngineSettings(store.current());
 * ```
 */
export function engineSettingsSync(
  pipeline: EnginePipeline,
  initial: Settings,
  options: EngineRegistryOptions,
): (settings: Settings) => void {
  let applied = initial;
  return function applyEngineSettings(settings: Settings) {
    if (settings === applied) return;
    const changed = ENGINE_IDS.filter((id) =>
      JSON.stringify(settings.engines[id]) !== JSON.stringify(applied.engines[id])
    );
    const reordered = JSON.stringify(settings.engines.order) !==
      JSON.stringify(applied.engines.order);
    applied = settings;
    if (changed.length === 0 && !reordered) return;
    pipeline.reconfigure(
      changed.map((id) => BUILDERS[id](settings, options)),
      settings.engines.order,
    );
  };
}

/** Builds the engines and the `auto` pipeline over them, in the configured order. */
export function createEnginePipeline(
  settings: Settings,
  options: EngineRegistryOptions,
): EnginePipeline {
  return new EnginePipeline(createEngines(settings, options), {
    order: settings.engines.order,
    queues: { [BUILTIN_ENGINE_ID]: options.localQueue ?? BUILTIN_QUEUE },
    statusTtlMs: options.statusTtlMs,
  });
}
