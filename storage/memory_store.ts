/**
 * Translation memory: source → target pairs per language pair, from the user (`user`) or from
 * earlier translations (`engine`). Exact lookup by normalised key; fuzzy lookup through MinHash
 * band keys (storage/memory_sketch.ts). A user entry wins over an engine one.
 */
import type { Database } from "./database.ts";
import {
  bandKeys,
  bigrams,
  dice,
  entryKey,
  FUZZY_THRESHOLD,
  memoryKey,
  shingles,
  sizeBounds,
  withLineEnds,
} from "./memory_sketch.ts";
import { SqlConditions } from "./sql_conditions.ts";
import { decodeCursor, encodeCursor } from "./page_cursor.ts";
import { distinctEntries } from "./memory_entries_distinct.ts";

/** The tag of memory cursors. */
const MEMORY_CURSOR = "m";

/** Where an entry came from. */
export type MemoryOrigin = "user" | "engine";

/** One stored entry. */
export interface MemoryEntry {
  id: string;
  sourceLang: string;
  targetLang: string;
  source: string;
  target: string;
  origin: MemoryOrigin;
  /** Epoch seconds. */
  created: number;
  /** What steered an engine's translation ({@link NewMemoryEntry.steering}); '' for none. */
  steering: string;
}

/** A new entry. */
export interface NewMemoryEntry {
  sourceLang: string;
  targetLang: string;
  source: string;
  target: string;
  /** Epoch seconds; default now. */
  created?: number;
  /**
   * The digest of what steered an engine's translation (`steeringOf`); '' (the default) for none
   * and for user entries, which hold whatever the request's steering.
   */
  steering?: string;
}

/** A fuzzy hit: an entry and its similarity (0.75..1). */
export interface FuzzyHit {
  source: string;
  target: string;
  similarity: number;
}

/** Filter and page of {@link MemoryStore.list}. */
export interface MemoryQuery {
  sourceLang?: string;
  targetLang?: string;
  /** Substring of source or target (ASCII case-insensitive). */
  q?: string;
  limit: number;
  cursor?: string;
}

/** Entries of one origin for {@link MemoryStore.addInBatches}. */
export interface MemoryImportGroup {
  origin: MemoryOrigin;
  entries: readonly NewMemoryEntry[];
}

/** What an import's batches changed, to be put back when a later batch fails. */
interface ImportUndo {
  inserted: number[];
  replaced: { id: number; source: string; target: string; created: number; steering: string }[];
  /**
   * Ids another write changed while the import ran (between its batches): that write was
   * answered as done, so putting back leaves those rows as it left them.
   */
  settled: Set<number>;
}

/** Entries per transaction of {@link MemoryStore.addInBatches}: about 0.1–0.2 s of writing each. */
export const IMPORT_BATCH = 2000;

/**
 * The pause between two batches, in ms. One turn of the event loop (a 0 ms timer) was not enough:
 * a request that awaits several I/O operations (GET /v1/health asks each engine) moved one
 * operation per batch and waited a second for 12 of them; 10 ms of idle loop lets it finish.
 */
const IMPORT_PAUSE_MS = 10;

/** The memory tables of one database. */
export class MemoryStore {
  /** The undo records of the imports under way. */
  readonly #imports = new Set<ImportUndo>();

  constructor(readonly database: Database) {}

  /**
   * Adds each group's entries as {@link add} does, {@link IMPORT_BATCH} per transaction, pausing
   * between them so other requests are answered: node:sqlite is synchronous, and a TMX import of
   * 200,000 units in one transaction held every other request of the service for 22 s. Resolves
   * to how many entries were written, each counted once however often a group repeats it
   * ({@link distinctEntries}), also across batches. All or nothing: when a batch cannot be
   * written, what the batches before it wrote is put back (a half import left the memory
   * holding part of a file, with entries it replaced changed).
   *
   * @throws {StorageError} when the database cannot be written.
   */
  async addInBatches(groups: readonly MemoryImportGroup[]): Promise<number> {
    const undo: ImportUndo = { inserted: [], replaced: [], settled: new Set() };
    let written = 0;
    this.#imports.add(undo);
    try {
      for (const { origin, entries } of groups) {
        const distinct = distinctEntries(entries);
        for (let start = 0; start < distinct.length; start += IMPORT_BATCH) {
          if (written > 0) await new Promise((resolve) => setTimeout(resolve, IMPORT_PAUSE_MS));
          written += this.#write(distinct.slice(start, start + IMPORT_BATCH), origin, undo);
        }
      }
    } catch (error) {
      this.#putBack(undo);
      throw error;
    } finally {
      this.#imports.delete(undo);
    }
    return written;
  }

  /**
   * Puts back what an import's written batches changed, in one transaction, their text erased
   * from the disk too (`Database.erased`). Deleting and rewriting rows needs no new pages, so
   * this succeeds where the import ran out of them; if it cannot (the disk is that full), the
   * import's error is the one reported.
   */
  #putBack(undo: ImportUndo): void {
    if (undo.inserted.length === 0 && undo.replaced.length === 0) return;
    const remove = this.database.statement("delete from memory_entries where id = ?");
    const restore = this.database.statement(
      "update memory_entries set source = ?, target = ?, created = ?, steering = ? where id = ?",
    );
    try {
      this.database.transaction(() => {
        // The batches' commits put the imported text in the log; putting back must erase it.
        this.database.erased();
        for (const id of undo.inserted) if (!undo.settled.has(id)) remove.run(id);
        for (const row of undo.replaced) {
          if (undo.settled.has(row.id)) continue;
          restore.run(row.source, row.target, row.created, row.steering, row.id);
        }
      });
    } catch {
      // The import's own error is thrown by the caller: it says why nothing more could be written.
    }
  }

  /**
   * Adds or replaces entries in one transaction; an entry replaces the one with the same key,
   * pair and origin (an engine's latest translation of a text, with its steering, is the one
   * kept; the text it replaced is erased from the disk too, `Database.erased`), and an entry
   * repeated in `entries` is one entry, the later one kept. An entry holding U+0000 is left out
   * (`readableWhole`, memory_entries_distinct.ts). Returns how many entries were written, each
   * counted once.
   *
   * @throws {StorageError} when the database cannot be written (then none was).
   */
  add(entries: readonly NewMemoryEntry[], origin: MemoryOrigin): number {
    return this.#write(distinctEntries(entries), origin);
  }

  /** {@link add} of distinct entries, noting in `undo` what it changes. */
  #write(distinct: readonly NewMemoryEntry[], origin: MemoryOrigin, undo?: ImportUndo): number {
    if (distinct.length === 0) return 0;
    const find = this.database.statement(
      `select id, source, target, created, steering from memory_entries
       where source_lang = ? and target_lang = ? and key = ? and origin = ?`,
    );
    const update = this.database.statement(
      "update memory_entries set source = ?, target = ?, created = ?, steering = ? where id = ?",
    );
    const insert = this.database.statement(
      `insert into memory_entries
         (source_lang, target_lang, key, source, target, origin, length, created, steering)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const gram = this.database.statement(
      "insert or ignore into memory_grams (gram, length, entry_id) values (?, ?, ?)",
    );
    const now = Math.floor(Date.now() / 1000);
    // Noted once the batch is committed: a batch that fails is rolled back by the transaction.
    const changed: Omit<ImportUndo, "settled"> = { inserted: [], replaced: [] };
    this.database.transaction(() => {
      for (const entry of distinct) {
        const key = entryKey(entry.source);
        const created = entry.created ?? now;
        const steering = entry.steering ?? "";
        const existing = find.get(entry.sourceLang, entry.targetLang, key, origin) as
          | ImportUndo["replaced"][number]
          | undefined;
        if (existing) {
          update.run(entry.source, entry.target, created, steering, existing.id);
          // A corrected entry, or an engine's new translation: the old text goes from the disk.
          if (existing.source !== entry.source || existing.target !== entry.target) {
            this.database.erased();
          }
          changed.replaced.push(existing);
          continue;
        }
        // Similarity is over the words, wherever the lines break.
        const flat = memoryKey(entry.source);
        const grams = bigrams(flat);
        const id = Number(
          insert.run(
            entry.sourceLang,
            entry.targetLang,
            key,
            entry.source,
            entry.target,
            origin,
            grams.size,
            created,
            steering,
          )
            .lastInsertRowid,
        );
        for (const band of bandKeys(shingles(flat), `${entry.sourceLang}>${entry.targetLang}`)) {
          gram.run(band, grams.size, id);
        }
        changed.inserted.push(id);
      }
    });
    undo?.inserted.push(...changed.inserted);
    undo?.replaced.push(...changed.replaced);
    for (const other of this.#imports) {
      if (other !== undo) { for (const row of changed.replaced) other.settled.add(row.id); }
    }
    return distinct.length;
  }

  /**
   * The stored translation of exactly this text (normalised, with the same line breaks:
   * {@link entryKey}, which it is given as the text writes them), a user entry first; or null. An engine's entry counts only when it was
   * made under the same `steering` (`steeringOf`).
   */
  exact(sourceLang: string, targetLang: string, text: string, steering = ""): string | null {
    const target = this.exactEntries(sourceLang, targetLang, text, steering)[0]?.target;
    return target === undefined ? null : withLineEnds(target, text);
  }

  /**
   * The entries stored for this text (normalised, with the same line breaks: {@link entryKey}), a
   * user entry first, then an engine's made under the same `steering`; at most one of each.
   */
  exactEntries(
    sourceLang: string,
    targetLang: string,
    text: string,
    steering = "",
  ): { source: string; target: string }[] {
    // 'user' sorts after 'engine': the unique index gives a user entry first, with no sort step.
    return this.database.statement(
      `select source, target from memory_entries where source_lang = ? and target_lang = ?
         and key = ? and (origin = 'user' or steering = ?)
       order by origin desc limit 2`,
    ).all(sourceLang, targetLang, entryKey(text), steering) as {
      source: string;
      target: string;
    }[];
  }

  /** Up to `limit` entries at least 75% similar to `text`, most similar (then user) first. */
  fuzzy(sourceLang: string, targetLang: string, text: string, limit = 3): FuzzyHit[] {
    const key = memoryKey(text);
    const grams = bigrams(key);
    const [low, high] = sizeBounds(grams.size);
    const bands = bandKeys(shingles(key), `${sourceLang}>${targetLang}`);
    const rows = this.database.statement(
      // CROSS JOIN keeps the band index as the outer loop: SQLite would otherwise walk every
      // entry of the language pair through the (source_lang, target_lang, key) index.
      `select distinct e.key, e.source, e.target, e.origin from memory_grams g
       cross join memory_entries e on e.id = g.entry_id
       where g.gram in (${bands.map(() => "?").join(",")}) and g.length between ? and ?
         and e.source_lang = ? and e.target_lang = ?
       limit 200`,
    ).all(...bands, low, high, sourceLang, targetLang) as {
      key: string;
      source: string;
      target: string;
      origin: string;
    }[];
    return rows
      .map((row) => ({ row, similarity: dice(grams, bigrams(memoryKey(row.key))) }))
      .filter(({ similarity }) => similarity >= FUZZY_THRESHOLD)
      .sort((a, b) =>
        b.similarity - a.similarity ||
        Number(b.row.origin === "user") - Number(a.row.origin === "user")
      )
      .slice(0, limit)
      .map(({ row, similarity }) => ({ source: row.source, target: row.target, similarity }));
  }

  /**
   * A page of entries, newest first. The cursor is the id of the last entry returned, and an id
   * is never given twice (migration 7), so entries added or deleted while a client pages never
   * shift the pages it has not read.
   *
   * @throws {RangeError} for a cursor this list never made.
   * @throws {StorageError} when the database cannot be read (a damaged file, a lock).
   */
  list(query: MemoryQuery): { entries: MemoryEntry[]; nextCursor: string | null } {
    const after = decodeCursor(MEMORY_CURSOR, query.cursor);
    const conditions = new SqlConditions()
      .addIf(after, "id < ?")
      .addIf(query.sourceLang, "source_lang = ?")
      .addIf(query.targetLang, "target_lang = ?")
      // instr, not LIKE: LIKE stops at a U+0000 in q and matched every entry; lower() folds
      // ASCII as LIKE did, and q needs no escaping.
      .addIf(query.q, "(instr(lower(source), lower(?)) > 0 or instr(lower(target), lower(?)) > 0)");
    const rows = this.database.read(() =>
      this.database.db.prepare(
        `select * from memory_entries ${conditions.sql} order by id desc limit ?`,
      ).all(...conditions.values, query.limit + 1) as Record<string, unknown>[]
    );
    const page = rows.slice(0, query.limit).map(toEntry);
    return {
      entries: page,
      nextCursor: rows.length > query.limit
        ? encodeCursor(MEMORY_CURSOR, Number(page[page.length - 1].id))
        : null,
    };
  }

  /**
   * Every entry, oldest first (export).
   *
   * @throws {StorageError} when the database cannot be read.
   */
  *all(): Generator<MemoryEntry> {
    let after = 0;
    const page = this.database.db.prepare(
      "select * from memory_entries where id > ? order by id limit 1000",
    );
    for (;;) {
      const rows = this.database.read(() => page.all(after) as Record<string, unknown>[]);
      if (rows.length === 0) return;
      for (const row of rows) yield toEntry(row);
      after = Number(rows[rows.length - 1].id);
    }
  }

  /**
   * Deletes one entry, its text erased from the disk too (`Database.erased`); false when
   * there was none.
   *
   * @throws {StorageError} when the database cannot be written.
   */
  delete(id: string): boolean {
    // Only the spelling the list gives: "01" is not entry 1 to a client comparing ids.
    if (!/^[1-9]\d{0,14}$/.test(id)) return false;
    return this.database.transaction(() => {
      this.database.erased();
      return Number(
        this.database.db.prepare("delete from memory_entries where id = ?").run(Number(id)).changes,
      ) > 0;
    });
  }
}

function toEntry(row: Record<string, unknown>): MemoryEntry {
  return {
    id: String(row.id),
    sourceLang: String(row.source_lang),
    targetLang: String(row.target_lang),
    source: String(row.source),
    target: String(row.target),
    origin: row.origin as MemoryOrigin,
    created: Number(row.created),
    steering: String(row.steering ?? ""),
  };
}
