/**
 * `engine-two`: the local desktop model server (LM Studio) through its OpenAI-compatible
 * `/v1/models` and `/v1/chat/completions`.
 */
import type { Settings } from "../schemas/settings.ts";
import type { Engine } from "./engine.ts";
import { createChatCompletionsEngine } from "./llm/chat_completions_client.ts";

/**
 * Creates `engine-two` from its settings.
 *
 * @example
 * ```ts
 * const engine = createEngineTwo(settings.engines["engine-two"]);
 * ```
 */
export function createEngineTwo(settings: Settings["engines"]["engine-two"]): Engine {
  return createChatCompletionsEngine("engine-two", "Desktop model server (LM Studio)", settings);
}
