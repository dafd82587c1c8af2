/**
 * The LM Studio engine (wire id `engine-two`): the local desktop model server through its
 * OpenAI-compatible `/v1/models` and `/v1/chat/completions`.
 */
import type { EngineId } from "../../schemas/languages.ts";
import type { Settings } from "../../schemas/settings.ts";
import type { Engine } from "../engine.ts";
import { createChatCompletionsEngine } from "./chat_completions_client.ts";

/** The wire id of the LM Studio engine in requests, settings and capabilities. */
export const LM_STUDIO_ENGINE_ID = "engine-two" satisfies EngineId;

/**
 * Creates the LM Studio engine (`engine-two`) from its settings.
 *
 * @example
 * ```ts
 * const engine = createLmStudioEngine(settings.engines["engine-two"]);
 * ```
 */
export function createLmStudioEngine(settings: Settings["engines"]["engine-two"]): Engine {
  return createChatCompletionsEngine(
    LM_STUDIO_ENGINE_ID,
    "Desktop model server (LM Studio)",
    settings,
  );
}
