/**
 * Translation history in SQLite (`node:sqlite`), one row per request that was not sensitive.
 */
import { DatabaseSync } from "node:sqlite";
import { dirname } from "node:path";

/** One stored translation request and its result. */
export interface HistoryEntry {
  id: string;
  created: number;
  client: string | null;
  engine: string;
  model: string;
  source: string;
  target: string;
  texts: string[];
  translations: string[];
}

const SCHEMA = `
create table if not exists translation_history (
  id text primary key,
  created integer not null,
  client text,
  engine text not null,
  model text not null,
  source text not null,
  target text not null,
  texts text not null,
  translations text not null
);
create index if not exists translation_history_created on translation_history (created);
`;

/** The history database of one data directory. */
export class HistoryStore {
  readonly #db: DatabaseSync;

  /** Opens (creating if needed) the database file; use ":memory:" for none on disk. */
  constructor(readonly path: string) {
    if (path !== ":memory:") Deno.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.#db = new DatabaseSync(path);
    this.#db.exec("pragma journal_mode = wal;");
    this.#db.exec(SCHEMA);
    if (path !== ":memory:") Deno.chmodSync(path, 0o600);
  }

  /** Stores one entry. */
  record(entry: HistoryEntry): void {
    this.#db.prepare(
      `insert into translation_history
       (id, created, client, engine, model, source, target, texts, translations)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      entry.id,
      entry.created,
      entry.client,
      entry.engine,
      entry.model,
      entry.source,
      entry.target,
      JSON.stringify(entry.texts),
      JSON.stringify(entry.translations),
    );
  }

  /** The newest entries first. */
  recent(limit = 50): HistoryEntry[] {
    const rows = this.#db.prepare(
      "select * from translation_history order by created desc, rowid desc limit ?",
    ).all(limit) as Record<string, unknown>[];
    return rows.map((row) => ({
      id: String(row.id),
      created: Number(row.created),
      client: row.client === null ? null : String(row.client),
      engine: String(row.engine),
      model: String(row.model),
      source: String(row.source),
      target: String(row.target),
      texts: JSON.parse(String(row.texts)),
      translations: JSON.parse(String(row.translations)),
    }));
  }

  /** Closes the database. */
  close(): void {
    this.#db.close();
  }
}
