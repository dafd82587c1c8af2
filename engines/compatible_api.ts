/**
 * `compatible-api`: any chat-completions server at a configured loopback base URL (for example
 * `tolk infer`), with an optional bearer key. Not ready while `base_url` is null.
 */
import type { Settings } from "../schemas/settings.ts";
import type { Engine } from "./engine.ts";
import { createChatCompletionsEngine } from "./llm/chat_completions_client.ts";

/**
 * Creates `compatible-api` from its settings.
 *
 * @example
 * ```ts
 * const engine = createCompatibleApi(settings.engines["compatible-api"]);
 * ```
 */
export function createCompatibleApi(settings: Settings["engines"]["compatible-api"]): Engine {
  return createChatCompletionsEngine("compatible-api", "Chat-completions server", settings);
}
