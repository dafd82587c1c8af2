/**
 * `compatible-api`: any chat-completions server at a configured loopback base URL (for example
 * `tolk infer`), with an optional bearer key. Not ready while `base_url` is null.
 */
import type { EngineId } from "../../schemas/languages.ts";
import type { Settings } from "../../schemas/settings.ts";
import type { Engine } from "../engine.ts";
import { createChatCompletionsEngine } from "./chat_completions_client.ts";

/** The wire id of the chat-completions engine in requests, settings and capabilities. */
export const COMPATIBLE_API_ENGINE_ID = "compatible-api" satisfies EngineId;

/**
 * Creates `compatible-api` from its settings.
 *
 * @example
 * ```ts
 * const engine = createCompatibleApiEngine(settings.engines["compatible-api"]);
 * ```
 */
export function createCompatibleApiEngine(settings: Settings["engines"]["compatible-api"]): Engine {
  return createChatCompletionsEngine(COMPATIBLE_API_ENGINE_ID, "Chat-completions server", settings);
}
