/**
 * One translation request, from validated body to response body: shared by POST /v1/translate
 * and the WebSocket, so both follow the same rules.
 */
import type { Detection, LanguageDetector } from "../detection/language_detector.ts";
import type { EngineChoice, EnginePipeline } from "../engines/engine_pipeline.ts";
import { serviceError } from "../errors/translation_errors.ts";
import {
  countCodePoints,
  type TranslateRequest,
  type TranslateResponse,
} from "../schemas/translation.ts";
import { type Features, refusedFeature } from "../schemas/features.ts";
import {
  checkEngineStepOptions,
  type EngineStepDeps,
  translateWithUserWords,
} from "./engine_step.ts";
import type { DictionaryPair, GlossaryReport } from "./glossary/glossary_step.ts";
import { newTranslationId } from "../storage/history_id.ts";
import { type HistoryDeps, recordHistory } from "./history_record.ts";
import { finishItems, planItems, tagOptions } from "./plan.ts";
import { MEMORY_ENGINE } from "./memory/memory_step.ts";
import { translateSegments } from "./segment_translation.ts";

/** What a translation needs from the service. */
export interface TranslationDeps extends HistoryDeps, EngineStepDeps {
  detector: LanguageDetector;
  pipeline: EnginePipeline;
  /** The feature flags of capabilities; a request asking for one that is off is refused. */
  features: Features;
  /** Where log lines go (never request contents). */
  log?: (line: string) => void;
}

/** Per-request context. */
export interface TranslationContext {
  /** `X-Svc-Client`, stored with the history row. */
  client: string | null;
  /** Aborted when the client goes away. */
  signal?: AbortSignal;
  /** Queue owner (the WebSocket connection), so one connection's burst cannot starve others. */
  owner?: unknown;
  /**
   * Given each item's detection (with its confidence, which the response does not carry), as the
   * translation read it: LibreTranslate's `detectedLanguage` reports these rather than detecting
   * again on text cut another way.
   */
  onDetected?: (detections: readonly Detection[]) => void;
  /**
   * The pair of the glossary dictionary that serves the request, when not the request's own:
   * DeepL's glossaries have one Chinese, so a dictionary of one script serves the other.
   */
  glossaryPair?: DictionaryPair;
}

/** Engine and model named in a response when no item needed an engine. */
export const PASSTHROUGH = "passthrough";

/**
 * Detects, routes and translates every item of a request: refuse what is off, plan each item
 * (`plan.ts`), send the engine's share through the pipeline, put the items back, record.
 *
 * @throws {TranslationServiceError} for options this build cannot honour.
 * @throws {EngineUnavailableError | EngineFailedError | EngineBusyError} from the pipeline.
 */
export async function runTranslation(
  deps: TranslationDeps,
  request: TranslateRequest,
  context: TranslationContext,
): Promise<TranslateResponse> {
  const started = performance.now();
  refuseUnsupportedOptions(request, deps.features);
  const options = request.options ?? {};
  const target = request.target;
  const explicitSource = request.source && request.source !== "auto" ? request.source : undefined;
  const planned = planItems(request.texts, (text) => deps.detector.detect(text), {
    source: explicitSource,
    target,
    preserveFormatting: options.preserve_formatting === true,
    format: request.format,
    mode: request.mode,
    tags: tagOptions(options),
  });
  context.onDetected?.(planned.map((item) => item.detected));

  const stepOptions = {
    glossaryId: options.glossary_id,
    glossaryPair: context.glossaryPair,
    memory: options.memory,
    sensitive: options.sensitive,
    // Markdown's wrapped lines reach segments as placeholders, not as line breaks.
    softLineBreaks: request.format === "html",
  };
  checkEngineStepOptions(deps, stepOptions);
  const mode = request.mode ?? "paragraph";
  let firstCall = true;
  let glossary: GlossaryReport | undefined = options.glossary_id
    ? { matched: 0, applied: 0 }
    : undefined;
  let engine = PASSTHROUGH;
  let model = PASSTHROUGH;
  let choice = (options.engine ?? "auto") as EngineChoice;
  const toEngine = planned.filter((item) => item.route === "engine");
  const outcome = await translateSegments(
    toEngine.map((item) => ({ cut: item.cut!, source: item.source })),
    async (items) => {
      const job = {
        items,
        target,
        model: options.model,
        mode,
        tone: options.tone,
        context: options.context,
        instructions: options.instructions,
        domain: options.domain,
        alternatives: options.return_alternatives === true,
        signal: context.signal,
        owner: context.owner,
      };
      // Memory and glossary act on whole segments; the format fallback's text runs go plainly.
      const served = firstCall
        ? await translateWithUserWords(deps, job, choice, stepOptions)
        : await deps.pipeline.translate(job, choice).then((plain) => ({
          engine: plain.engine,
          model: plain.outcome.model,
          items: plain.outcome.items,
          glossary: undefined,
        }));
      firstCall = false;
      if (served.glossary) glossary = served.glossary;
      // The fallback's call goes to the engine that served the first one.
      if (served.engine !== MEMORY_ENGINE) choice = served.engine as EngineChoice;
      engine = served.engine;
      model = served.model;
      return served.items;
    },
    { once: mode === "webpage" },
  );
  if (outcome.fallbacks > 0) {
    deps.log?.(
      `format fallback: ${outcome.fallbacks} of ${outcome.sent} segments came back from ` +
        `${engine} empty or with placeholders dropped, doubled or moved; their text runs were ` +
        `translated one by one and all markup kept in place`,
    );
  }
  if (outcome.keptAsWritten > 0) {
    deps.log?.(
      `format fallback: ${outcome.keptAsWritten} text runs came back from ${engine} empty ` +
        `again; they were kept untranslated`,
    );
  }
  const results = finishItems(planned, target, outcome.items).map((result, index) => ({
    index,
    text: result.text,
    detected_source: planned[index].detected.language,
    confidence: result.confidence,
    alternatives: result.alternatives,
  }));

  const response: TranslateResponse = {
    id: newTranslationId(),
    object: "translation",
    created: Math.floor(Date.now() / 1000),
    engine,
    model,
    source: explicitSource ?? mostDetected(planned.map((item) => item.detected.language)),
    target,
    results,
    usage: {
      input_chars: sumCodePoints(request.texts),
      output_chars: sumCodePoints(results.map((result) => result.text)),
      latency_ms: Math.round(performance.now() - started),
    },
    ...(glossary ? { glossary } : {}),
  };
  recordHistory(deps, request, response, context.client);
  return response;
}

/** A request asking for a feature whose flag is off is refused rather than half-served. */
function refuseUnsupportedOptions(request: TranslateRequest, features: Features): void {
  const refusal = refusedFeature(request, features);
  if (refusal) throw serviceError("invalid_request", refusal.message, { param: refusal.param });
}

/**
 * The language detected for most items, ties to the one seen first. A letterless item (`und`)
 * is in no language and is not counted; `und` only when every item is letterless.
 */
function mostDetected(languages: readonly string[]): string {
  const counts = new Map<string, number>();
  let best = "und";
  for (const language of languages) {
    if (language === "und") continue;
    const count = (counts.get(language) ?? 0) + 1;
    counts.set(language, count);
    if (best === "und" || count > counts.get(best)!) best = language;
  }
  return best;
}

function sumCodePoints(texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + countCodePoints(text), 0);
}
