/**
 * Every engine of `tolk serve`, built from the settings in one place.
 */
import type { Settings } from "../schemas/settings.ts";
import type { Engine } from "./engine.ts";
import { EnginePipeline } from "./engine_pipeline.ts";
import type { EngineQueueOptions } from "./engine_queue.ts";
import { createCompatibleApi } from "./compatible_api.ts";
import { createEngineOne } from "./engine_one.ts";
import { createEngineTwo } from "./engine_two.ts";
import { createLocalLlmEngine } from "./local_llm.ts";

/** What the engines need besides the settings. */
export interface EngineRegistryOptions {
  modelsDir: string;
  /** Caps generated tokens of the built-in model (tests use small fixtures). */
  maxNewTokens?: number;
  /** Queue of the built-in model; default one job at a time, 32 waiting. */
  localQueue?: EngineQueueOptions;
  /** How long the pipeline reuses engine statuses, in ms (the pipeline's default when unset). */
  statusTtlMs?: number;
}

/** Builds every engine the service offers, in no particular order. */
export function createEngines(settings: Settings, options: EngineRegistryOptions): Engine[] {
  return [
    createLocalLlmEngine({
      modelsDir: options.modelsDir,
      defaultModel: settings.engines["local-llm"].model,
      maxNewTokens: options.maxNewTokens,
    }),
    createEngineOne(settings.engines["engine-one"]),
    createEngineTwo(settings.engines["engine-two"]),
    createCompatibleApi(settings.engines["compatible-api"]),
  ];
}

/**
 * Builds the engines and the `auto` pipeline over them, in the configured order. The built-in
 * model runs one job at a time: it already uses every core.
 */
export function createEnginePipeline(
  settings: Settings,
  options: EngineRegistryOptions,
): EnginePipeline {
  return new EnginePipeline(createEngines(settings, options), {
    order: settings.engines.order,
    queues: { "local-llm": options.localQueue ?? { concurrency: 1, maxWaiting: 32 } },
    statusTtlMs: options.statusTtlMs,
  });
}
