/**
 * The engine step of a translation, with the user's own words around it: the memory answers
 * what it knows exactly and gives similar pairs as examples; the glossary's terms go to the
 * engine and are checked after it; new translations are remembered. Runs where
 * run_translation.ts would call the pipeline directly.
 */
import type { TranslatedItem, TranslationJob } from "../engines/engine.ts";
import type { EngineChoice, EnginePipeline } from "../engines/engine_pipeline.ts";
import { serviceError } from "../errors/translation_errors.ts";
import type { FailureLog } from "../storage/failure_log.ts";
import type { MemoryStore } from "../storage/memory_store.ts";
import {
  attachTerms,
  type DictionaryPair,
  type GlossaryMatchers,
  type GlossaryReport,
  missingTerms,
  termCount,
  translateWithTerms,
} from "./glossary/glossary_step.ts";
import type { TermMatch } from "./glossary/term_matcher.ts";
import {
  lookUpMemory,
  MEMORY_ENGINE,
  rememberTranslations,
  steeringOf,
} from "./memory/memory_step.ts";

/** What the engine step needs from the service. */
export interface EngineStepDeps {
  pipeline: EnginePipeline;
  /** Absent when the service has no data directory: `glossary_id` is then refused. */
  glossaries?: GlossaryMatchers;
  /** Absent when the service has no data directory: `memory: true` then does nothing. */
  memory?: MemoryStore;
  failures?: FailureLog;
}

/** The user's options that act on the engine step. */
export interface EngineStepOptions {
  glossaryId?: string | null;
  /** The glossary dictionary's pair when another serves the job's (TranslationContext). */
  glossaryPair?: DictionaryPair;
  memory?: boolean;
  sensitive?: boolean;
  /**
   * A line break inside a segment is white space like any other (HTML), so a memory hit need not
   * have the request's line breaks.
   */
  softLineBreaks?: boolean;
}

/** The translated segments, who served them, and the glossary's report when one was used. */
export interface EngineStepResult {
  engine: string;
  model: string;
  items: TranslatedItem[];
  glossary?: GlossaryReport;
}

/**
 * Checks the options before any work (an unknown glossary is a 400, not a late surprise).
 *
 * @throws {TranslationServiceError} 400 `invalid_request` naming `options.glossary_id`.
 */
export function checkEngineStepOptions(deps: EngineStepDeps, options: EngineStepOptions): void {
  if (options.glossaryId === undefined || options.glossaryId === null) return;
  if (!deps.glossaries) {
    throw serviceError("invalid_request", "this service has no glossary store", {
      param: "options.glossary_id",
    });
  }
  deps.glossaries.require(options.glossaryId);
}

/**
 * Translates the job's segments.
 *
 * @throws {EngineUnavailableError | EngineFailedError | EngineBusyError} from the pipeline.
 */
export async function translateWithUserWords(
  deps: EngineStepDeps,
  job: TranslationJob,
  choice: EngineChoice,
  options: EngineStepOptions,
): Promise<EngineStepResult> {
  const glossaryId = options.glossaryId ?? undefined;
  const useMemory = options.memory === true && deps.memory !== undefined;
  // Without a glossary or memory (most requests) the job goes as it is: no copies or per-item
  // bookkeeping for each of a document's segments.
  if (!(glossaryId && deps.glossaries) && !useMemory) {
    const served = await deps.pipeline.translate(job, choice);
    return { engine: served.engine, model: served.outcome.model, items: served.outcome.items };
  }
  const items = job.items.map((item) => ({ ...item }));
  const matches: TermMatch[][] = glossaryId && deps.glossaries
    ? attachTerms(deps.glossaries, glossaryId, items, job.target, options.glossaryPair)
    : items.map(() => []);
  const matched = glossaryId && deps.glossaries
    ? items.reduce((sum, item) => sum + termCount(item), 0)
    : undefined;
  const steering = useMemory ? steeringOf(job) : "";
  const { hits } = useMemory
    ? lookUpMemory(deps.memory!, items, {
      target: job.target,
      steering,
      softLineBreaks: options.softLineBreaks,
      failures: deps.failures,
    })
    : { hits: new Map<number, TranslatedItem>() };
  // A remembered translation that misses a glossary term is not reused: the engine is asked.
  const pending = items.flatMap((item, index) => {
    const hit = hits.get(index);
    if (!hit || !item.terms?.length) return hit ? [] : [index];
    if (missingTerms(item, hit.text, job.target) > 0) {
      hits.delete(index);
      return [index];
    }
    return [];
  });

  const results: TranslatedItem[] = items.map((_, index) => hits.get(index)!);
  let engine = MEMORY_ENGINE;
  let model = MEMORY_ENGINE;
  let applied = 0;
  if (pending.length > 0) {
    const pendingItems = pending.map((index) => items[index]);
    const { served, applied: appliedByEngine } = await translateWithTerms(
      deps.pipeline,
      { ...job, items: pendingItems },
      choice,
      pending.map((index) => matches[index]),
    );
    engine = served.engine;
    model = served.outcome.model;
    applied = appliedByEngine;
    pending.forEach((index, i) => results[index] = served.outcome.items[i]);
    if (useMemory && options.sensitive !== true) {
      rememberTranslations(
        deps.memory!,
        pendingItems,
        served.outcome.items,
        job.target,
        steering,
        deps.failures,
      );
    }
  }
  for (const index of hits.keys()) applied += termCount(items[index]);
  return {
    engine,
    model,
    items: results,
    glossary: matched === undefined ? undefined : { matched, applied },
  };
}
