/**
 * `engine-two`: the local desktop model server (LM Studio) through its OpenAI-compatible
 * `/v1/models` and `/v1/chat/completions`.
 */
import type { Settings } from "../schemas/settings.ts";
import type { Engine } from "./engine.ts";
import { createChatCompletionsBackend } from "./llm/chat_completions_client.ts";
import { createLlmEngine } from "./llm/llm_engine.ts";

/**
 * Creates `engine-two` from its settings.
 *
 * @example
 * ```ts
 * const engine = createEngineTwo(settings.engines["engine-two"]);
 * ```
 */
export function createEngineTwo(settings: Settings["engines"]["engine-two"]): Engine {
  const baseUrl = settings.base_url;
  return createLlmEngine({
    id: "engine-two",
    name: "Desktop model server (LM Studio)",
    backend: baseUrl
      ? createChatCompletionsBackend({
        engine: "engine-two",
        baseUrl,
        requestTimeoutMs: settings.request_timeout_ms,
        probeTimeoutMs: settings.probe_timeout_ms,
      })
      : null,
    defaultModel: settings.model,
    contextTokens: settings.context_tokens,
    maxBatchItems: settings.max_batch_items,
    temperature: settings.temperature,
    statusCacheMs: settings.status_cache_ms,
  });
}
