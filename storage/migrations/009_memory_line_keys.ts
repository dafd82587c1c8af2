/**
 * Migration 9: a memory entry's key keeps its line breaks (storage/memory_sketch.ts, `entryKey`).
 * The key had every gap of white space as one space, so texts differing only in their lines were
 * one entry of an origin: a user's "Good\n\nmorning" replaced their "Good morning". Only an entry
 * whose source holds a line break has a new key, and keys that were unique stay so (a finer key
 * of the same text). The fuzzy index is over the words and is left as it is.
 */
import type { DatabaseSync } from "node:sqlite";
import { entryKey } from "../memory_sketch.ts";

/** The line break characters `entryKey` keeps, as SQL `char` arguments. */
const BREAKS = [10, 11, 12, 13, 133, 8232, 8233];

/** Rewrites the key of every entry whose source holds a line break. */
export function memoryLineKeys(db: DatabaseSync): void {
  const rows = db.prepare(
    `select id, source from memory_entries
     where ${BREAKS.map((code) => `instr(source, char(${code})) > 0`).join(" or ")}`,
  ).all() as { id: number; source: string }[];
  const update = db.prepare("update memory_entries set key = ? where id = ?");
  for (const row of rows) update.run(entryKey(row.source), row.id);
}
