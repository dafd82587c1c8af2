/**
 * Which entries of a memory write are written: each text once, and only one that reads back as
 * it was given.
 */
import type { NewMemoryEntry } from "./memory_store.ts";
import { entryKey } from "./memory_sketch.ts";

/**
 * `entries` with each entry once: those with the same pair and normalised source are one entry,
 * at the place of the first and with the content of the last, as writing them in order leaves
 * it. Counting `entries` instead said "2 imported" for a TMX holding one unit twice.
 */
export function distinctEntries(entries: readonly NewMemoryEntry[]): NewMemoryEntry[] {
  const byKey = new Map<string, NewMemoryEntry>();
  for (const entry of entries.filter(readableWhole)) {
    byKey.set(`${entry.sourceLang}>${entry.targetLang}>${entryKey(entry.source)}`, entry);
  }
  return [...byKey.values()];
}

/**
 * Whether an entry reads back as written. SQLite keeps a U+0000, but node:sqlite reads a text
 * only up to its first one: "Hello\0world" came back as "Hello", an exact hit answering with a
 * cut translation, and a listed and exported entry of other text. Half a surrogate pair is
 * written as UTF-8's U+FFFD, and came back as that.
 */
export function readableWhole(entry: NewMemoryEntry): boolean {
  return [entry.source, entry.target].every((text) =>
    !text.includes("\u0000") && text.isWellFormed()
  );
}
