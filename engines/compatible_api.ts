/**
 * `compatible-api`: any chat-completions server at a configured loopback base URL (for example
 * `tolk infer`), with an optional bearer key. Not ready while `base_url` is null.
 */
import type { Settings } from "../schemas/settings.ts";
import type { Engine } from "./engine.ts";
import { createChatCompletionsBackend } from "./llm/chat_completions_client.ts";
import { createLlmEngine } from "./llm/llm_engine.ts";

/**
 * Creates `compatible-api` from its settings.
 *
 * @example
 * ```ts
 * const engine = createCompatibleApi(settings.engines["compatible-api"]);
 * ```
 */
export function createCompatibleApi(settings: Settings["engines"]["compatible-api"]): Engine {
  const baseUrl = settings.base_url;
  return createLlmEngine({
    id: "compatible-api",
    name: "Chat-completions server",
    backend: baseUrl
      ? createChatCompletionsBackend({
        engine: "compatible-api",
        baseUrl,
        apiKey: settings.api_key,
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
