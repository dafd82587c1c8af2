/**
 * A translation service whose compatible-api engine is the chat-completions stand-in: the pair
 * the chat engines' answer-reading tests run against.
 */
import {
  type ChatCompletionsStandIn,
  type ChatCompletionsStandInOptions,
  startChatCompletionsStandIn,
} from "./chat_completions_stand_in.ts";
import { engineAt, type TestService, withTranslationService } from "./translation_service.ts";

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
    await withTranslationService(
      (service) => fn(service, backend),
      engineAt("compatible-api", backend.baseUrl),
    );
  } finally {
    await backend.stop();
  }
}
