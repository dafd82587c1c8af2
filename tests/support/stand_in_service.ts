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
export function withStandInService(
  options: StandInServiceOptions,
  fn: (service: TestService, runner: OllamaStandIn) => Promise<void>,
): Promise<void> {
  return withStandIn(options, fn, undefined);
}

/**
 * As {@link withStandInService}, engine-one the only engine in the order: routes that cannot
 * name an engine (DeepL's, LibreTranslate's) reach the stand-in.
 */
export function withOnlyStandIn(
  options: StandInServiceOptions,
  fn: (service: TestService, runner: OllamaStandIn) => Promise<void>,
): Promise<void> {
  return withStandIn(options, fn, ["engine-one"]);
}

/**
 * The stand-in's options, the service's data folder (a database made beforehand) and more
 * settings of engine-one (`num_ctx`, …).
 */
type StandInServiceOptions =
  & OllamaStandInOptions
  & Pick<TestServiceOptions, "dataDir">
  & { engineOne?: Record<string, unknown> };

async function withStandIn(
  options: StandInServiceOptions,
  fn: (service: TestService, runner: OllamaStandIn) => Promise<void>,
  order: string[] | undefined,
): Promise<void> {
  const runner = startOllamaStandIn(options);
  try {
    const engineOne = { base_url: runner.baseUrl, status_cache_ms: 0, ...options.engineOne };
    const service = await startTranslationService({
      settings: {
        engines: order ? { order, "engine-one": engineOne } : { "engine-one": engineOne },
      },
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
