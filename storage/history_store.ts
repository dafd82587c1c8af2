/**
 * Translation history: one row per request that was not sensitive, newest first.
 *
 * The service records rows with {@link HistoryStore.recordSoon}: rows of the same event-loop turn
 * are written together, in one transaction, on the next turn. Under 200 WebSocket clients a
 * transaction per row (begin, insert, commit, a WAL append each) was 13 % of the loop's busy
 * time; a batch pays for one commit. Reads, deletes and closing write the waiting rows first, so
 * nothing recorded is missing from a list or lost at shutdown.
 */
import { clearImmediate, setImmediate } from "node:timers";
import type { Database } from "./database.ts";
import { SqlConditions } from "./sql_conditions.ts";
import { decodeCursor, encodeCursor } from "./page_cursor.ts";

/** The tag of history cursors. */
const HISTORY_CURSOR = "h";

/** One stored translation request and its result. */
export interface HistoryEntry {
  id: string;
  /** Epoch seconds. */
  created: number;
  client: string | null;
  engine: string;
  model: string;
  source: string;
  target: string;
  mode: string;
  format: string;
  texts: string[];
  translations: string[];
}

/** A filter and a page of {@link HistoryStore.list}. */
export interface HistoryQuery {
  /** Rows per page (the route bounds it). */
  limit: number;
  /** `next_cursor` of the previous page. */
  cursor?: string;
  /** Case-insensitive (ASCII) substring of a text or a translation. */
  q?: string;
  /** Exact `X-Svc-Client`. */
  client?: string;
}

/** What {@link HistoryStore.rows} keeps: a filter of the list and how many rows at most. */
export interface HistoryRowsFilter extends Pick<HistoryQuery, "q" | "client"> {
  /** Most rows given (default: every one). */
  most?: number;
}

/** Rows read at a time by {@link HistoryStore.rows}: one page's worth, not the whole history. */
const ROWS_PAGE = 500;

/** One page, newest first; `nextCursor` is null on the last page. */
export interface HistoryPage {
  entries: HistoryEntry[];
  nextCursor: string | null;
}

/** Rows waiting for their batch write, and the outcome every one of them shares. */
interface PendingBatch {
  readonly rows: HistoryEntry[];
  readonly written: PromiseWithResolvers<void>;
  readonly flush: ReturnType<typeof setImmediate>;
}

/** The history table of one database. */
export class HistoryStore {
  #batch?: PendingBatch;

  constructor(readonly database: Database) {}

  /**
   * Stores one entry now.
   *
   * @throws {StorageError} when the database cannot be written.
   */
  record(entry: HistoryEntry): void {
    this.database.transaction(() => this.#insert(entry));
  }

  /**
   * Stores `entry` with the other rows of this turn, on the next turn (or at the next read or
   * {@link flush}). The promise, shared by the whole batch, settles when the batch is written;
   * it rejects with a {@link StorageError} (the batch is not written) and must be handled.
   */
  recordSoon(entry: HistoryEntry): Promise<void> {
    this.#batch ??= {
      rows: [],
      written: Promise.withResolvers<void>(),
      flush: setImmediate(() => this.flush()),
    };
    this.#batch.rows.push(entry);
    return this.#batch.written.promise;
  }

  /** Writes the rows waiting from {@link recordSoon} now; their promise tells how it went. */
  flush(): void {
    const batch = this.#batch;
    if (batch === undefined) return;
    this.#batch = undefined;
    clearImmediate(batch.flush);
    try {
      this.database.transaction(() => batch.rows.forEach((row) => this.#insert(row)));
      batch.written.resolve();
    } catch (error) {
      batch.written.reject(error);
    }
  }

  #insert(entry: HistoryEntry): void {
    this.database.statement(
      `insert into translation_history
       (id, created, client, engine, model, source, target, mode, format, texts, translations)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      entry.id,
      entry.created,
      entry.client,
      entry.engine,
      entry.model,
      entry.source,
      entry.target,
      entry.mode,
      entry.format,
      JSON.stringify(entry.texts),
      JSON.stringify(entry.translations),
    );
  }

  /**
   * A page of rows, newest first. The cursor is the `seq` of the last row returned, and a `seq`
   * is never given twice (migration 6), so rows recorded or deleted while a client pages never
   * shift the pages it has not read.
   *
   * @throws {RangeError} for a cursor this list never made.
   * @throws {StorageError} when the database cannot be read (a damaged file, a lock).
   */
  list(query: HistoryQuery): HistoryPage {
    this.flush();
    const after = decodeCursor(HISTORY_CURSOR, query.cursor);
    // Texts are stored as JSON arrays. A LIKE on the JSON spelling of q is fast and finds every
    // row that holds q, but also rows where only the JSON does ("[", "," between items, the "t"
    // of an escaped tab); the items themselves then decide. (instr, not LIKE: LIKE stops at a
    // NUL, and lower() folds ASCII as LIKE does.)
    const pattern = query.q ? jsonPattern(query.q) : "";
    const conditions = new SqlConditions()
      .addIf(after, "seq < ?")
      .addIf(pattern, "(texts like ? escape '\\' or translations like ? escape '\\')")
      .addIf(query.q, `(${itemHolds("texts")} or ${itemHolds("translations")})`)
      .addIf(query.client, "client = ?");
    return this.database.read(() => {
      const rows = this.database.db.prepare(
        `select * from translation_history ${conditions.sql} order by seq desc limit ?`,
      ).all(...conditions.values, query.limit + 1) as Record<string, unknown>[];
      const more = rows.length > query.limit;
      const page = rows.slice(0, query.limit);
      return {
        entries: page.map(toEntry),
        nextCursor: more ? encodeCursor(HISTORY_CURSOR, Number(page[page.length - 1].seq)) : null,
      };
    });
  }

  /** Every row, newest first, in pages (export). */
  all(): Generator<HistoryEntry> {
    return this.rows();
  }

  /**
   * The rows `filter` keeps, newest first, at most `filter.most` (default all), read a page at a
   * time as they are consumed: `tolk history list --limit 10000` holds one page of rows, not ten
   * thousand, and a reader that stops (`| head`) stops the reading.
   *
   * @throws {StorageError} when the database cannot be read.
   */
  *rows(filter: HistoryRowsFilter = {}): Generator<HistoryEntry> {
    let left = filter.most ?? Infinity;
    let cursor: string | undefined;
    while (left > 0) {
      const page = this.list({
        q: filter.q,
        client: filter.client,
        cursor,
        limit: Math.min(ROWS_PAGE, left),
      });
      yield* page.entries;
      left -= page.entries.length;
      if (page.nextCursor === null) return;
      cursor = page.nextCursor;
    }
  }

  /**
   * Deletes one row, its text erased from the disk too (`Database.erased`); false when
   * there was none.
   *
   * @throws {StorageError} when the database cannot be written.
   */
  delete(id: string): boolean {
    this.flush();
    return this.database.transaction(() => {
      this.database.erased();
      return Number(
        this.database.db.prepare("delete from translation_history where id = ?").run(id).changes,
      ) > 0;
    });
  }

  /**
   * Deletes every row, their texts erased from the disk too; resolves to how many there were.
   *
   * @throws {StorageError} when the database cannot be written.
   */
  clear(): number {
    this.flush();
    return this.database.transaction(() => {
      // Also when there is nothing left to delete: a clear run again finishes emptying a log
      // that a reader at work kept the first time.
      this.database.erased();
      return Number(this.database.db.prepare("delete from translation_history").run().changes);
    });
  }
}

/** A LIKE pattern matching `q` inside a JSON array of strings. */
function jsonPattern(q: string): string {
  const json = JSON.stringify(q).slice(1, -1);
  return `%${json.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** SQL: an item of the JSON array in `column` holds `?`, ASCII case-insensitively. */
function itemHolds(column: "texts" | "translations"): string {
  return `exists (select 1 from json_each(${column}) where instr(lower(value), lower(?)) > 0)`;
}

function toEntry(row: Record<string, unknown>): HistoryEntry {
  return {
    id: String(row.id),
    created: Number(row.created),
    client: row.client === null ? null : String(row.client),
    engine: String(row.engine),
    model: String(row.model),
    source: String(row.source),
    target: String(row.target),
    mode: String(row.mode),
    format: String(row.format),
    texts: JSON.parse(String(row.texts)),
    translations: JSON.parse(String(row.translations)),
  };
}
