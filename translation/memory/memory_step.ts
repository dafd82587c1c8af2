/**
 * The memory step of a translation (`options.memory: true`): before any engine, an exact hit on
 * the normalised text is the translation; hits of at least 75% similarity go to the engine as
 * examples. After it, new translations are stored, unless the request is sensitive. A failed
 * read or write never fails the translation (storage/failure_log.ts).
 */
import type { TranslatedItem, TranslationItem } from "../../engines/engine.ts";
import type { FailureLog } from "../../storage/failure_log.ts";
import type { MemoryStore } from "../../storage/memory_store.ts";
import { isLanguageCode } from "../../schemas/languages.ts";

/** Engine and model named in a response when memory served every item that needed one. */
export const MEMORY_ENGINE = "memory";

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
  target: string,
  failures?: FailureLog,
): MemoryLookup {
  const hits = new Map<number, TranslatedItem>();
  try {
    items.forEach((item, index) => {
      const exact = memory.exact(item.source, target, item.text);
      if (exact !== null) {
        hits.set(index, { text: exact, confidence: 1, alternatives: [] });
        return;
      }
      const examples = memory.fuzzy(item.source, target, item.text);
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
  failures?: FailureLog,
): void {
  const entries = items.flatMap((item, index) => {
    const text = translated[index]?.text;
    // Only the 16 languages: an item detected as another language is not worth remembering.
    if (!text || !item.text.trim() || !isLanguageCode(item.source)) return [];
    return [{ sourceLang: item.source, targetLang: target, source: item.text, target: text }];
  });
  try {
    memory.add(entries, "engine");
    failures?.succeeded("memory");
  } catch (error) {
    failures?.failed("memory", error, memory.database.path);
  }
}
