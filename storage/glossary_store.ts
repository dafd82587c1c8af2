/**
 * Glossaries: named sets of dictionaries, one per language pair, each an ordered entry list.
 * The API (create, list, get, entries, patch, delete) is what the glossary routes and the DeepL
 * compatibility routes share.
 */
import type { Database } from "./database.ts";

/** One entry; an empty `target` means "do not translate". */
export interface StoredEntry {
  source: string;
  target: string;
}

/** A dictionary with its entries. */
export interface StoredDictionary {
  sourceLang: string;
  targetLang: string;
  entries: StoredEntry[];
}

/** A glossary without its entries. */
export interface GlossaryRecord {
  id: string;
  name: string;
  /** Epoch milliseconds. */
  created: number;
  /** Ordered by source, then target language. */
  dictionaries: { sourceLang: string; targetLang: string; entryCount: number }[];
}

/** The glossary tables of one database. */
export class GlossaryStore {
  #revision = 0;
  /** `pragma data_version` when last looked at (see {@link revision}). */
  #dataVersion?: number;

  constructor(readonly database: Database) {}

  /**
   * Grows on every change, so caches of compiled dictionaries know when to drop: this store's
   * own writes, and a commit by another connection to the file (a second `tolk serve` on the
   * same data directory, whose corrected term would otherwise never reach this one's cache).
   *
   * @throws {StorageError} when the database cannot be read.
   */
  get revision(): number {
    // SQLite changes data_version for commits of other connections only, and reading it costs
    // no page read: a request pays next to nothing to notice one.
    const { data_version } = this.database.read(() =>
      this.database.statement("pragma data_version").get()
    ) as { data_version: number };
    if (this.#dataVersion !== undefined && data_version !== this.#dataVersion) this.#revision++;
    this.#dataVersion = data_version;
    return this.#revision;
  }

  /**
   * Creates a glossary (entries already validated).
   *
   * @throws {StorageError} when the database cannot be written.
   */
  create(name: string, dictionaries: readonly StoredDictionary[]): GlossaryRecord {
    const id = crypto.randomUUID();
    const created = Date.now();
    this.#write(() => {
      this.database.db.prepare("insert into glossaries (id, name, created) values (?, ?, ?)")
        .run(id, name, created);
      for (const dictionary of dictionaries) this.#putDictionary(id, dictionary);
    });
    return this.get(id)!;
  }

  /**
   * Every glossary, oldest first.
   *
   * @throws {StorageError} when the database cannot be read.
   */
  list(): GlossaryRecord[] {
    return this.database.read(() => {
      const rows = this.database.db.prepare(
        "select id from glossaries order by created, id",
      ).all() as { id: string }[];
      return rows.map((row) => this.get(row.id)!);
    });
  }

  /**
   * One glossary, or null when there is none with this id.
   *
   * @throws {StorageError} when the database cannot be read.
   */
  get(id: string): GlossaryRecord | null {
    return this.database.read(() => this.#record(id));
  }

  #record(id: string): GlossaryRecord | null {
    const row = this.database.db.prepare("select id, name, created from glossaries where id = ?")
      .get(id) as { id: string; name: string; created: number } | undefined;
    if (!row) return null;
    const dictionaries = this.database.db.prepare(
      `select d.source_lang, d.target_lang, count(e.position) as entry_count
       from glossary_dictionaries d
       left join glossary_entries e using (glossary_id, source_lang, target_lang)
       where d.glossary_id = ? group by d.source_lang, d.target_lang
       order by d.source_lang, d.target_lang`,
    ).all(id) as { source_lang: string; target_lang: string; entry_count: number }[];
    return {
      id: row.id,
      name: row.name,
      created: Number(row.created),
      dictionaries: dictionaries.map((d) => ({
        sourceLang: d.source_lang,
        targetLang: d.target_lang,
        entryCount: Number(d.entry_count),
      })),
    };
  }

  /**
   * Whether a glossary with this id exists.
   *
   * @throws {StorageError} when the database cannot be read.
   */
  exists(id: string): boolean {
    return this.database.read(() =>
      this.database.statement("select 1 from glossaries where id = ?").get(id) !== undefined
    );
  }

  /**
   * The dictionaries of a glossary with their entries in stored order, optionally one pair's;
   * null when the glossary does not exist.
   *
   * @throws {StorageError} when the database cannot be read.
   */
  entries(
    id: string,
    filter: { sourceLang?: string; targetLang?: string } = {},
  ): StoredDictionary[] | null {
    const glossary = this.get(id);
    if (!glossary) return null;
    return glossary.dictionaries
      .filter((d) => !filter.sourceLang || d.sourceLang === filter.sourceLang)
      .filter((d) => !filter.targetLang || d.targetLang === filter.targetLang)
      .map((d) => ({
        sourceLang: d.sourceLang,
        targetLang: d.targetLang,
        entries: this.dictionary(id, d.sourceLang, d.targetLang) ?? [],
      }));
  }

  /**
   * The entries of one pair, or null when the glossary has no such dictionary.
   *
   * @throws {StorageError} when the database cannot be read.
   */
  dictionary(id: string, sourceLang: string, targetLang: string): StoredEntry[] | null {
    return this.database.read(() => this.#entriesOf(id, sourceLang, targetLang));
  }

  #entriesOf(id: string, sourceLang: string, targetLang: string): StoredEntry[] | null {
    const rows = this.database.statement(
      `select source, target from glossary_entries
       where glossary_id = ? and source_lang = ? and target_lang = ? order by position`,
    ).all(id, sourceLang, targetLang) as unknown as StoredEntry[];
    if (rows.length > 0) return rows.map((row) => ({ source: row.source, target: row.target }));
    const known = this.database.statement(
      "select 1 from glossary_dictionaries where glossary_id = ? and source_lang = ? and target_lang = ?",
    ).get(id, sourceLang, targetLang);
    return known ? [] : null;
  }

  /**
   * Renames and/or replaces dictionaries (each replaces the one of its pair; one with no entries
   * removes its pair), the old name and entries erased from the disk too (`Database.erased`).
   * Null when the glossary does not exist.
   *
   * @throws {StorageError} when the database cannot be written.
   */
  patch(
    id: string,
    changes: { name?: string; dictionaries?: readonly StoredDictionary[] },
  ): GlossaryRecord | null {
    if (!this.exists(id)) return null;
    this.#write(() => {
      // The old name and entries are user text (a wrong or sensitive term being corrected).
      this.database.erased();
      if (changes.name !== undefined) {
        this.database.db.prepare("update glossaries set name = ? where id = ?")
          .run(changes.name, id);
      }
      for (const dictionary of changes.dictionaries ?? []) {
        this.database.db.prepare(
          "delete from glossary_dictionaries where glossary_id = ? and source_lang = ? and target_lang = ?",
        ).run(id, dictionary.sourceLang, dictionary.targetLang);
        if (dictionary.entries.length > 0) this.#putDictionary(id, dictionary);
      }
    });
    return this.get(id);
  }

  /**
   * Deletes a glossary with its dictionaries, their text erased from the disk too
   * (`Database.erased`); false when there was none.
   *
   * @throws {StorageError} when the database cannot be written.
   */
  delete(id: string): boolean {
    return this.#write(() => {
      this.database.erased();
      return Number(
        this.database.db.prepare("delete from glossaries where id = ?").run(id).changes,
      ) > 0;
    });
  }

  #write<T>(work: () => T): T {
    const result = this.database.transaction(work);
    this.#revision++;
    return result;
  }

  #putDictionary(id: string, dictionary: StoredDictionary): void {
    const db = this.database.db;
    db.prepare(
      "insert into glossary_dictionaries (glossary_id, source_lang, target_lang) values (?, ?, ?)",
    ).run(id, dictionary.sourceLang, dictionary.targetLang);
    const insert = db.prepare(
      `insert into glossary_entries (glossary_id, source_lang, target_lang, position, source, target)
       values (?, ?, ?, ?, ?, ?)`,
    );
    dictionary.entries.forEach((entry, position) =>
      insert.run(
        id,
        dictionary.sourceLang,
        dictionary.targetLang,
        position,
        entry.source,
        entry.target,
      )
    );
  }
}
