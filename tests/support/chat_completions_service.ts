/**
 * A translation service whose compatible-api engine is the chat-completions stand-in: the pair
 * the chat engines' answer-reading tests run against.
 */
import {
  type ChatCompletionsStandIn,
  type ChatCompletionsStandInOptions,
  startChatCompletionsStandIn,
} from "./chat_completions_stand_in.ts";
import { startTranslationService, type TestService } from "./translation_service.ts";

/**
 * Starts the stand-in (with `options`) and a service whose compatible-api points at it, runs
 * `fn`, and stops both.
 *
 * @example
 * ```ts
 * await withChatCompletionsService({ completions: ['{"1": "Hi"}'] }, async (service) => {
 *   await postTranslate(service, { source: "fr", target: "en", texts: ["Salut"] });
 * });
 * ```
 */
export async function withChatCompletionsService(
  options: ChatCompletionsStandInOptions,
  fn: (service: TestService, backend: ChatCompletionsStandIn) => Promise<void>,
): Promise<void> {
  const backend = startChatCompletionsStandIn(options);
  try {
    const service = await startTranslationService({
      settings: {
        engines: { "compatible-api": { base_url: backend.baseUrl, status_cache_ms: 0 } },
      },
      statusTtlMs: 0,
    });
    try {
      await fn(service, backend);
    } finally {
      await service.stop();
    }
  } finally {
    await backend.stop();
  }
}
