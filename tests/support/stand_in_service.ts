/**
 * A translation service whose engine-one is the model-runner stand-in: the pair most
 * translate-path tests run against.
 */
import {
  type OllamaStandIn,
  type OllamaStandInOptions,
  startOllamaStandIn,
} from "./ollama_stand_in.ts";
import {
  startTranslationService,
  type TestService,
  type TestServiceOptions,
} from "./translation_service.ts";

/**
 * Starts the stand-in (with `options`) and a service whose engine-one points at it (on
 * `options.dataDir` when given), runs `fn`, and stops both.
 *
 * @example
 * ```ts
 * await withStandInService({}, async (service, runner) => {
 *   await postTranslate(service, { source: "en", target: "de", texts: ["Hi"] });
 * });
 * ```
 */
export async function withStandInService(
  options: OllamaStandInOptions & Pick<TestServiceOptions, "dataDir">,
  fn: (service: TestService, runner: OllamaStandIn) => Promise<void>,
): Promise<void> {
  const runner = startOllamaStandIn(options);
  try {
    const service = await startTranslationService({
      settings: { engines: { "engine-one": { base_url: runner.baseUrl, status_cache_ms: 0 } } },
      statusTtlMs: 0,
      dataDir: options.dataDir,
    });
    try {
      await fn(service, runner);
    } finally {
      await service.stop();
    }
  } finally {
    await runner.stop();
  }
}
