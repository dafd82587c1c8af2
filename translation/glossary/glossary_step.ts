/**
 * The glossary step of a translation: find each segment's terms, hand them to the engine (chat
 * engines read them in the prompt; the built-in engine gets them as placeholders), check the
 * answer, ask once more for the segments that missed a term, and report what happened
 * (`Svc-Glossary-Report: matched=<n>; applied=<m>`).
 */
import type { TranslatedItem, TranslationItem, TranslationJob } from "../../engines/engine.ts";
import { BUILTIN_ENGINE_ID } from "../../engines/builtin/builtin_engine.ts";
import type {
  EngineChoice,
  EnginePipeline,
  ServedTranslation,
} from "../../engines/engine_pipeline.ts";
import { serviceError } from "../../errors/translation_errors.ts";
import { isChineseScript, toChineseScript } from "../../engines/builtin/script_conversion.ts";
import type { GlossaryStore } from "../../storage/glossary_store.ts";
import { termChecker } from "./term_check.ts";
import { segmentSpan, visibleText } from "./visible_text.ts";
import { type GlossaryTerm, type TermMatch, TermMatcher } from "./term_matcher.ts";
import { normaliseSpans, spansInText } from "./nfc_offsets.ts";
import { translateProtected } from "./term_protection.ts";

/** How many terms were found in the texts, and how many the translations use. */
export interface GlossaryReport {
  matched: number;
  applied: number;
}

/** The `Svc-Glossary-Report` header value. */
export function glossaryReportHeader(report: GlossaryReport): string {
  return `matched=${report.matched}; applied=${report.applied}`;
}

/** Compiled dictionaries of the glossary store, dropped whenever the store changes. */
export class GlossaryMatchers {
  readonly #cache = new Map<string, TermMatcher | null>();
  #revision = -1;

  constructor(readonly store: GlossaryStore) {}

  /**
   * The glossary a request names.
   *
   * @throws {TranslationServiceError} 400 `invalid_request` (`options.glossary_id`) when unknown.
   */
  require(glossaryId: string): string {
    if (!this.store.exists(glossaryId)) {
      throw serviceError("invalid_request", "no glossary with this id", {
        param: "options.glossary_id",
      });
    }
    return glossaryId;
  }

  /**
   * The matcher of one pair, or null when the glossary has no dictionary for it. With
   * `dictionary`, that dictionary's pair serves `source` → `target` (another Chinese script's:
   * its target terms are written in `target`'s script; its source terms are matched as written,
   * as a script-less Chinese source names no script to write them in).
   */
  matcher(
    glossaryId: string,
    source: string,
    target: string,
    dictionary: DictionaryPair = { source, target },
  ): TermMatcher | null {
    if (this.#revision !== this.store.revision) {
      this.#cache.clear();
      this.#revision = this.store.revision;
    }
    const key = [glossaryId, source, target, dictionary.source, dictionary.target].join("\u0000");
    let matcher = this.#cache.get(key);
    if (matcher === undefined) {
      const entries = this.store.dictionary(glossaryId, dictionary.source, dictionary.target);
      const script = dictionary.target !== target && isChineseScript(target) ? target : undefined;
      matcher = entries
        ? new TermMatcher(
          script
            ? entries.map((entry) => ({ ...entry, target: toChineseScript(entry.target, script) }))
            : entries,
          dictionary.source,
        )
        : null;
      this.#cache.set(key, matcher);
    }
    return matcher;
  }
}

/** A glossary dictionary's language pair. */
export interface DictionaryPair {
  source: string;
  target: string;
}

/**
 * Finds every item's terms: the item gets the distinct terms (`item.terms`) and the answer holds
 * each item's matches, in text order, at offsets of `item.text`. Matching is in NFC, on the
 * words a reader sees (visible_text.ts: markup inside a word does not cut it); the text
 * stays as written but for the terms to translate, in NFC (an engine that leaves a word alone
 * gives its bytes back), unless the matches cannot be carried back to it ({@link spansInText}):
 * then the item's text becomes its NFC form. `dictionary`: the pair of the dictionary serving
 * the items (GlossaryMatchers.matcher), when not their own.
 */
export function attachTerms(
  matchers: GlossaryMatchers,
  glossaryId: string,
  items: TranslationItem[],
  target: string,
  dictionary?: DictionaryPair,
): TermMatch[][] {
  return items.map((item) => {
    const normal = item.text.normalize("NFC");
    const matcher = matchers.matcher(glossaryId, item.source, target, dictionary);
    if (!matcher) return [];
    const visible = visibleText(normal, item.escapedCharacters);
    const matches = matcher.match(visible.text).map((match) => ({
      ...match,
      ...segmentSpan(visible, match.start, match.end),
    }));
    if (matches.length === 0) return matches;
    const terms = new Map<string, GlossaryTerm>();
    for (const match of matches) terms.set(match.term.source, match.term);
    item.terms = [...terms.values()];
    const carried = spansInText(item.text, matches);
    if (carried === undefined) {
      item.text = normal;
      return matches;
    }
    // A kept term stays as written too: it comes back exactly as the text has it.
    const spelled = normaliseSpans(item.text, carried, (match) => match.term.target !== "");
    item.text = spelled.text;
    return spelled.spans;
  });
}

/**
 * The item's terms as the report counts them: once for each segment of the request the item
 * stands for (`webpage` mode sends identical segments once).
 */
export function termCount(item: TranslationItem): number {
  return (item.terms?.length ?? 0) * (item.occurrences ?? 1);
}

/** How many of the item's terms `text` does not use. */
export function missingTerms(item: TranslationItem, text: string, target: string): number {
  if (!item.terms?.length) return 0;
  const applied = termChecker(visibleText(text, item.escapedCharacters).text, target);
  return item.terms.filter((term) => !applied(term)).length;
}

/**
 * Translates `job` (whose items carry their terms; `matches` per item), then asks the engine
 * that served it once more for the items whose translation misses a term, keeping the better
 * answer of each. The built-in engine gets the terms as placeholders.
 */
export async function translateWithTerms(
  pipeline: EnginePipeline,
  job: TranslationJob,
  choice: EngineChoice,
  matches: readonly TermMatch[][],
): Promise<{ served: ServedTranslation; applied: number }> {
  const served = choice === BUILTIN_ENGINE_ID
    ? await protectedJob(pipeline, job, matches, job.items.map((_, index) => index))
    : await pipeline.translate(job, choice);
  const items = [...served.outcome.items];
  const missing = (index: number, text: string) => missingTerms(job.items[index], text, job.target);
  const retry = job.items.flatMap((item, index) =>
    item.terms?.length && missing(index, items[index].text) > 0 ? [index] : []
  );
  if (retry.length > 0) {
    let again: TranslatedItem[] | undefined;
    try {
      again = served.engine === BUILTIN_ENGINE_ID
        ? (await protectedJob(pipeline, job, matches, retry)).outcome.items
        : (await pipeline.translate(
          { ...job, items: retry.map((index) => job.items[index]) },
          served.engine,
        )).outcome.items;
    } catch (error) {
      // The first answer stands (and the report says what it missed) unless the client left.
      if (job.signal?.aborted) throw error;
    }
    retry.forEach((index, i) => {
      const candidate = again?.[i];
      if (candidate && missing(index, candidate.text) < missing(index, items[index].text)) {
        items[index] = candidate;
      }
    });
  }
  let applied = 0;
  job.items.forEach((item, index) => {
    applied += termCount(item) - missing(index, items[index].text) * (item.occurrences ?? 1);
  });
  return { served: { ...served, outcome: { ...served.outcome, items } }, applied };
}

/** The built-in engine on the items at `indexes`: terms protected, the rest as they are. */
async function protectedJob(
  pipeline: EnginePipeline,
  job: TranslationJob,
  matches: readonly TermMatch[][],
  indexes: readonly number[],
): Promise<ServedTranslation> {
  let model = "";
  const translate = async (items: TranslationItem[]) => {
    const served = await pipeline.translate({ ...job, items }, BUILTIN_ENGINE_ID);
    model = served.outcome.model;
    return served.outcome.items;
  };
  const withTerms = indexes.filter((index) => matches[index]?.length);
  const plain = indexes.filter((index) => !matches[index]?.length);
  const [protectedItems, plainItems] = await Promise.all([
    withTerms.length
      ? translateProtected(
        withTerms.map((index) => ({ item: job.items[index], matches: matches[index] })),
        job.target,
        translate,
      )
      : [],
    plain.length ? translate(plain.map((index) => job.items[index])) : [],
  ]);
  const byIndex = new Map<number, TranslatedItem>();
  withTerms.forEach((index, i) => byIndex.set(index, protectedItems[i]));
  plain.forEach((index, i) => byIndex.set(index, plainItems[i]));
  return {
    engine: BUILTIN_ENGINE_ID,
    outcome: { model, items: indexes.map((index) => byIndex.get(index)!) },
  };
}
