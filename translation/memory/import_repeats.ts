/**
 * Units of one TMX file that another unit of the same file replaces with a different
 * translation: the same language pair, origin and source text (normalised, as memory looks it
 * up), the later one kept. They are counted in the import's `skipped` (README, "Glossaries,
 * translation memory and history"): the answer is `{imported, skipped}` and nothing else
 * (DECISIONS.md, "Translation memory"), so a file that contradicts itself says so there, and a
 * repeat of the same translation, which loses nothing, is not counted.
 */
import { entryKey } from "../../storage/memory_sketch.ts";
import type { TmxEntry } from "./tmx.ts";

/**
 * How many of `entries` a later one of the same key replaces with another target: one that
 * differs after normalising (a pretty-printed `<seg>`'s outer white space is no other
 * translation: a hit answers with the request's own).
 */
export function replacedVariants(entries: readonly TmxEntry[]): number {
  const last = new Map<string, string>();
  const keys = entries.map((entry) => {
    const key = [entry.sourceLang, entry.targetLang, entry.origin, entryKey(entry.source)]
      .join("\u0000");
    last.set(key, entryKey(entry.target));
    return key;
  });
  return entries.filter((entry, i) => last.get(keys[i]) !== entryKey(entry.target)).length;
}
