/**
 * The LM Studio engine (wire id `engine-two`): the local desktop model server through its
 * OpenAI-compatible `/v1/models` and `/v1/chat/completions`.
 */
import type { EngineId } from "../../schemas/languages.ts";
import type { Settings } from "../../schemas/settings.ts";
import type { Engine } from "../engine.ts";
import { serverRoot } from "./backend_http.ts";
import { createChatCompletionsEngine } from "./chat_completions_client.ts";

/** The wire id of the LM Studio engine in requests, settings and capabilities. */
export const LM_STUDIO_ENGINE_ID = "engine-two" satisfies EngineId;

/**
 * What may follow the server's root in `base_url`: the OpenAI-compatible `/v1` (and its chat
 * endpoint), or the prefix of LM Studio's own REST API, `/api/v0` (its documents since 0.3) or
 * `/api/v1` (0.4, which its server pane lists), which the user may copy instead. Without them,
 * `…/api/v1/v1/models` gets LM Studio's 200 "Unexpected endpoint or method".
 */
const LM_STUDIO_PREFIXES = ["/v1/chat/completions", "/api/v1", "/api/v0", "/v1"];

/**
 * Creates the LM Studio engine (`engine-two`) from its settings.
 *
 * @example
 * ```ts
 * const engine = createLmStudioEngine(settings.engines["engine-two"]);
 * ```
 */
export function createLmStudioEngine(settings: Settings["engines"]["engine-two"]): Engine {
  const baseUrl = settings.base_url && serverRoot(settings.base_url, LM_STUDIO_PREFIXES);
  return createChatCompletionsEngine(
    LM_STUDIO_ENGINE_ID,
    "Desktop model server (LM Studio)",
    { ...settings, base_url: baseUrl },
  );
}
