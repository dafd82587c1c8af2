/**
 * The memory step of a translation (`options.memory: true`): before any engine, an exact hit on
 * the normalised text is the translation; hits of at least 75% similarity go to the engine as
 * examples. After it, new translations are stored, unless the request is sensitive. A failed
 * read or write never fails the translation (storage/failure_log.ts).
 *
 * An engine's translation is remembered with what steered it (the request's context, tone,
 * domain and instructions) and is an exact hit only for a request steered the same way; under
 * other steering it is one of the examples. The user's own entries are hits whatever the steering.
 */
import { createHash } from "node:crypto";
import type { TranslatedItem, TranslationItem, TranslationJob } from "../../engines/engine.ts";
import { placeholderProblem } from "../../engines/placeholder_tokens.ts";
import type { FailureLog } from "../../storage/failure_log.ts";
import type { MemoryStore } from "../../storage/memory_store.ts";
import { memoryKey, withLineEnds } from "../../storage/memory_sketch.ts";
import { isLanguageCode } from "../../schemas/languages.ts";

/** Engine and model named in a response when memory served every item that needed one. */
export const MEMORY_ENGINE = "memory";

/**
 * The digest of what steers an engine's translation of a job's items: '' when nothing does,
 * else a SHA-256 of the context, tone, domain and instructions (stored per entry, compared
 * whole: an 8,000-character context is not kept in every entry).
 */
export function steeringOf(
  job: Pick<TranslationJob, "context" | "tone" | "domain" | "instructions">,
): string {
  const { context, tone, domain, instructions } = job;
  if (!context && !tone && !domain && !instructions?.length) return "";
  const steering = JSON.stringify([context ?? "", tone ?? "", domain ?? "", instructions ?? []]);
  return createHash("sha256").update(steering).digest("base64url");
}

/** Items the memory already knows (by index), and the rest with their examples attached. */
export interface MemoryLookup {
  hits: Map<number, TranslatedItem>;
}

/**
 * Looks every item up: exact hits are returned, the others get up to 3 fuzzy examples.
 */
export function lookUpMemory(
  memory: MemoryStore,
  items: TranslationItem[],
  job: { target: string; steering: string; softLineBreaks?: boolean; failures?: FailureLog },
): MemoryLookup {
  const { target, steering, failures } = job;
  const hits = new Map<number, TranslatedItem>();
  try {
    items.forEach((item, index) => {
      // A line break in plain text is kept as written, so the hit must have the request's (the
      // store's key keeps them): a stored "Good\n\nmorning" brought its blank line into "Good
      // morning". In HTML one inside a segment is white space like any other: the segment's own
      // entry answers, else the one-line one.
      const exactOf = (text: string) =>
        memory.exactEntries(item.source, target, text, steering)[0]?.target ?? null;
      const exact = exactOf(item.text) ??
        (job.softLineBreaks ? exactOf(memoryKey(item.text)) : null);
      if (exact !== null && placeholderProblem(item.text, exact) === undefined) {
        // Items come without their outer white space, which the format puts back; a stored
        // target may have its own (a pretty-printed TMX <seg>, an entry sent as " Guten Tag "),
        // which the lookup ignored in its source too. Its lines end as the request's do.
        const answer = withLineEnds(exact.trim(), item.text);
        hits.set(index, { text: answer, confidence: 1, alternatives: [] });
        return;
      }
      const examples = memory.fuzzy(item.source, target, item.text)
        .filter((example) => placeholderProblem(example.source, example.target) === undefined);
      if (examples.length) {
        item.examples = examples.map(({ source, target }) => ({ source, target }));
      }
    });
  } catch (error) {
    failures?.failed("memory", error, memory.database.path);
  }
  return { hits };
}

/** Stores the engine's translations of `items` (origin `engine`); never throws. */
export function rememberTranslations(
  memory: MemoryStore,
  items: readonly TranslationItem[],
  translated: readonly TranslatedItem[],
  target: string,
  steering: string,
  failures?: FailureLog,
): void {
  const entries = items.flatMap((item, index) => {
    const text = translated[index]?.text;
    // Only the 16 languages: an item detected as another language is not worth remembering.
    if (!text || !item.text.trim() || !isLanguageCode(item.source)) return [];
    // Nor an answer that lost the segment's placeholders (the format's fallback made the
    // user's translation run by run): as an exact hit it would send every later request
    // straight to that fallback, and as an example it would teach a model to drop them.
    if (placeholderProblem(item.text, text) !== undefined) return [];
    return [{
      sourceLang: item.source,
      targetLang: target,
      source: item.text,
      target: text,
      steering,
    }];
  });
  try {
    memory.add(entries, "engine");
    failures?.succeeded("memory");
  } catch (error) {
    failures?.failed("memory", error, memory.database.path);
  }
}
