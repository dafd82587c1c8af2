/**
 * The one SQLite database of a data directory (`node:sqlite`): WAL journal, file mode 0600,
 * ordered migrations by `user_version`, and one error type that says what went wrong.
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { dirname, join } from "node:path";
import { MIGRATIONS } from "./migrations/migrations.ts";
import { openReadOnly, SQLITE_CANTOPEN } from "./read_only_connection.ts";

/** File name of the database inside the data directory. */
export const DATABASE_FILE = "tolk.sqlite3";

/** File name written by the first release (history only); adopted on first open. */
export const LEGACY_HISTORY_FILE = "history.sqlite3";

/** Why a database operation failed, in the words a user can act on. */
export type StorageFailure =
  | "full"
  | "read_only"
  | "locked"
  | "corrupt"
  | "cannot_open"
  | "missing"
  | "outdated"
  | "newer"
  | "other";

/** A database operation failed; `failure` is the class, the message names the path and reason. */
export class StorageError extends Error {
  override name = "StorageError";
  constructor(readonly failure: StorageFailure, message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

// SQLite primary result codes (https://sqlite.org/rescode.html); extended codes keep them in the low byte.
const FAILURE_BY_CODE: Record<number, StorageFailure> = {
  5: "locked", // SQLITE_BUSY
  6: "locked", // SQLITE_LOCKED
  8: "read_only", // SQLITE_READONLY
  11: "corrupt", // SQLITE_CORRUPT
  13: "full", // SQLITE_FULL
  [SQLITE_CANTOPEN]: "cannot_open",
  26: "corrupt", // SQLITE_NOTADB
};

// `exec` errors carry no errcode, only SQLite's own message (sqlite3ErrStr).
const FAILURE_BY_MESSAGE: [RegExp, StorageFailure][] = [
  [/database or disk is full|No space left|quota/i, "full"],
  [/readonly database|read-only file system|EROFS|Permission denied|EACCES/i, "read_only"],
  [/database is locked|database table is locked/i, "locked"],
  [/not a database|malformed|corrupt/i, "corrupt"],
  [/unable to open database file/i, "cannot_open"],
];

const REASON: Record<StorageFailure, string> = {
  full: "the disk or the database is full",
  read_only: "the database or its directory is read-only",
  locked: "the database is locked by another process",
  corrupt: "the database file is corrupt or not a database",
  cannot_open: "the database file cannot be opened",
  missing: "there is no database",
  outdated: "the database was written by an earlier release of tolk; `tolk serve` updates it",
  newer: "the database was written by a newer release of tolk; this one cannot read it",
  other: "the database failed",
};

/** Classifies anything thrown by `node:sqlite` (or the file system) into a {@link StorageError}. */
export function toStorageError(error: unknown, path: string): StorageError {
  if (error instanceof StorageError) return error;
  const code = (error as { errcode?: unknown })?.errcode;
  let failure: StorageFailure = typeof code === "number"
    ? FAILURE_BY_CODE[code & 0xff] ?? "other"
    : "other";
  if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable) {
    failure = "read_only";
  }
  if (failure === "other") {
    const text = String((error as Error)?.message ?? error);
    failure = FAILURE_BY_MESSAGE.find(([pattern]) => pattern.test(text))?.[1] ?? "other";
  }
  const detail = (error as { errstr?: unknown })?.errstr ?? (error as Error)?.message ?? error;
  return new StorageError(failure, `${REASON[failure]} (${path}: ${detail})`, { cause: error });
}

/** Options of {@link openDatabase}. */
export interface DatabaseOptions {
  /** Milliseconds a writer waits for another writer before `locked` (default 5000). */
  busyTimeoutMs?: number;
  /** SQLite `max_page_count`: caps the file size (tests of a full database). */
  maxPageCount?: number;
  /**
   * `read`: an existing database at the newest schema, opened read-only: nothing is created,
   * migrated or written, so a read-only copy can be read. Default `write`.
   */
  access?: "read" | "write";
  /** `write`: refuse (`missing`) rather than create a database that is not there. */
  mustExist?: boolean;
}

/** The open database: the connection and where it lives. */
export interface Database {
  /** The file, or ":memory:". */
  readonly path: string;
  readonly db: DatabaseSync;
  /**
   * The prepared statement of `sql`, compiled on first use and kept with the connection: the hot
   * paths (a memory lookup, a history row) pay for binding and stepping, not for parsing.
   */
  statement(sql: string): StatementSync;
  /**
   * Runs `work` in one transaction (`begin immediate`): all of it is written, or none, and a
   * rolled-back one leaves none of its text in the write-ahead log either ({@link checkpoint}).
   *
   * @throws {StorageError} when the database cannot be written.
   */
  transaction<T>(work: () => T): T;
  /**
   * Runs `work`, which only reads. A damaged file shows only when its pages are read, so a read
   * fails as a write does: with one {@link StorageError} (503 `storage_unavailable`), not a
   * raw SQLite error that would answer 500.
   *
   * @throws {StorageError} when the database cannot be read (a damaged file, a lock).
   */
  read<T>(work: () => T): T;
  /**
   * Says that the transaction at work removes or replaces user text (a delete, a corrected
   * term, a rename), or was asked to: once the outermost transaction commits,
   * {@link checkpoint} runs, so the old text is gone from the disk and not only from the tables.
   * Outside a transaction it checkpoints at once. Stores say what their write removes; this is
   * the one place that decides what follows, so no write path can forget the checkpoint or run
   * it before its commit, when the removed text is not yet out of the file's pages.
   */
  erased(): void;
  /**
   * Copies the write-ahead log into the file and empties it. The log keeps the page images a
   * delete replaced — the deleted text — until SQLite happens to write over them; after this
   * only the file is left, where `secure_delete` has zeroed the text. A reader of another
   * connection at work (a `tolk history list`) keeps the log as it is; the next call empties it.
   */
  checkpoint(): void;
  /** Checkpoints the WAL and closes the connection. */
  close(): void;
}

/**
 * Opens (creating if needed) the database of a data directory and migrates it to the newest
 * schema. A database written by the first release (`history.sqlite3`) is adopted with its rows.
 * With `access: "read"`, only opens an existing one to read.
 *
 * @throws {StorageError} when the directory or file cannot be created, read or migrated;
 * `missing` when there is none and it may not be created, `outdated` when reading one that
 * needs migrating.
 * @example
 * ```ts
 * const database = openDatabase(join(dataDir, DATABASE_FILE));
 * ```
 */
export function openDatabase(path: string, options: DatabaseOptions = {}): Database {
  if (options.access === "read") return openForReading(path, options);
  let db: DatabaseSync | undefined;
  try {
    if (path !== ":memory:") prepareFile(path, options.mustExist ?? false);
    db = new DatabaseSync(path);
    // busy_timeout first: WAL setup itself may wait for another process.
    db.exec(`pragma busy_timeout = ${options.busyTimeoutMs ?? 5000};`);
    // Before anything is written (the journal mode is in the file's header): a newer release's
    // schema is not this one's to change, and a damaged file shows here, as it is.
    refuseNewer(path, readVersion(db));
    db.exec("pragma journal_mode = wal; pragma synchronous = normal; pragma foreign_keys = on;");
    // Deleted rows are zeroed in their pages and freed overflow pages, not left readable in
    // free space: tolk holds text that must not stay on the disk once its user deletes it.
    // (`fast` would leave the overflow pages of a long text as they were.)
    db.exec("pragma secure_delete = on;");
    if (options.maxPageCount !== undefined) {
      db.exec(`pragma max_page_count = ${Math.trunc(options.maxPageCount)};`);
    }
    const database = wrap(path, db);
    migrate(database);
    if (path !== ":memory:") restrictFiles(path);
    return database;
  } catch (error) {
    // Closed, not left to the process's exit: the last connection removes the -wal and -shm
    // files its open made, so a refused file is left alone as it was found.
    if (db?.isOpen) db.close();
    throw toStorageError(error, path);
  }
}

function openForReading(path: string, options: DatabaseOptions): Database {
  let database: Database | undefined;
  try {
    requireExisting(path);
    database = wrap(path, openReadOnly(path));
    database.db.exec(`pragma busy_timeout = ${options.busyTimeoutMs ?? 5000};`);
    const version = schemaVersion(database);
    refuseNewer(path, version);
    if (version < NEWEST) throw failure("outdated", path);
    return database;
  } catch (error) {
    database?.close();
    throw toStorageError(error, path);
  }
}

/** Throws `missing` (or `outdated`, for the first release's file alone) unless `path` exists. */
function requireExisting(path: string): void {
  if (exists(path)) return;
  throw failure(exists(join(dirname(path), LEGACY_HISTORY_FILE)) ? "outdated" : "missing", path);
}

function failure(kind: StorageFailure, path: string): StorageError {
  return new StorageError(kind, `${REASON[kind]} (${path})`);
}

/** The schema version a database is at (`pragma user_version`). */
export function schemaVersion(database: Database): number {
  return readVersion(database.db);
}

function readVersion(db: DatabaseSync): number {
  return (db.prepare("pragma user_version").get() as { user_version: number }).user_version;
}

/** The schema version this release writes. */
const NEWEST = MIGRATIONS[MIGRATIONS.length - 1].version;

/**
 * Throws `newer` for a schema past this release's: its tables may mean what this code does not
 * know, and a write (or a migration run again over them) could lose what the newer release kept.
 */
function refuseNewer(path: string, version: number): void {
  if (version <= NEWEST) return;
  throw new StorageError(
    "newer",
    `${REASON.newer} (${path}: schema version ${version}, this release knows up to ${NEWEST})`,
  );
}

/** Longest wait of a checkpoint for another connection's reader or writer, in milliseconds. */
const CHECKPOINT_WAIT_MS = 100;

function wrap(path: string, db: DatabaseSync): Database {
  let depth = 0;
  // Set by `erased()` inside a transaction, acted on once the outermost one commits.
  let erasing = false;
  const statements = new Map<string, StatementSync>();
  return {
    path,
    db,
    statement(sql: string): StatementSync {
      let statement = statements.get(sql);
      if (!statement) statements.set(sql, statement = db.prepare(sql));
      return statement;
    },
    transaction<T>(work: () => T): T {
      // Nested calls join the outer transaction: one store method may call another.
      if (depth > 0) return work();
      try {
        db.exec("begin immediate");
      } catch (error) {
        throw toStorageError(error, path);
      }
      depth++;
      erasing = false;
      let result: T;
      try {
        result = work();
        db.exec("commit");
      } catch (error) {
        if (db.isTransaction) db.exec("rollback");
        // A long transaction spills pages into the log before it commits; a rollback leaves
        // those frames, text the caller was told was never written, until SQLite reuses them.
        erasing = false;
        this.checkpoint();
        throw toStorageError(error, path);
      } finally {
        depth--;
      }
      if (erasing) {
        erasing = false;
        this.checkpoint();
      }
      return result;
    },
    read<T>(work: () => T): T {
      try {
        return work();
      } catch (error) {
        throw toStorageError(error, path);
      }
    },
    erased() {
      if (depth > 0) erasing = true;
      else this.checkpoint();
    },
    checkpoint() {
      try {
        // A truncating checkpoint waits for every reader of the log (another process's, such as
        // a `tolk history export` into a pager) with the busy timeout, and the one thread that
        // serves every request would wait with it: it waits briefly instead, and a reader still
        // at work keeps the log until the next checkpoint or the close.
        const { timeout } = db.prepare("pragma busy_timeout").get() as { timeout: number };
        db.exec(`pragma busy_timeout = ${Math.min(timeout, CHECKPOINT_WAIT_MS)};`);
        try {
          db.exec("pragma wal_checkpoint(truncate);");
        } finally {
          db.exec(`pragma busy_timeout = ${timeout};`);
        }
      } catch {
        // A full or read-only disk cannot checkpoint; the WAL stays and is replayed on next open.
      }
    },
    close() {
      if (!db.isOpen) return;
      this.checkpoint();
      statements.clear();
      db.close();
    },
  };
}

function migrate(database: Database): void {
  const current = schemaVersion(database);
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    // The pragma is a no-op inside a transaction, so it is set around it. SQLite's procedure
    // ends with `pragma foreign_key_check`; such a migration keeps every referenced key by
    // construction (tests/routes/serve/memory_ids_test.ts), and the check took 5 of the 6 s of
    // migration 7 on 200,000 entries.
    if (migration.rebuildsReferencedTable) database.db.exec("pragma foreign_keys = off;");
    try {
      database.transaction(() => {
        database.db.exec(migration.sql);
        migration.run?.(database.db);
        database.db.exec(`pragma user_version = ${migration.version};`);
      });
    } finally {
      database.db.exec("pragma foreign_keys = on;");
    }
  }
}

/**
 * Creates the directory (0700) and adopts the first release's history file when it is alone.
 *
 * @throws {StorageError} `missing` when neither exists and `mustExist`; `read_only` when the
 * file exists but cannot be written (SQLite would only say it cannot open it).
 */
function prepareFile(path: string, mustExist: boolean): void {
  const legacy = join(dirname(path), LEGACY_HISTORY_FILE);
  if (mustExist && !exists(path) && !exists(legacy)) throw failure("missing", path);
  Deno.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (exists(path)) {
    Deno.openSync(path, { write: true }).close();
    return;
  }
  if (path === legacy || !exists(legacy)) {
    // Created empty with 0600 first: SQLite gives its -wal and -shm the main file's mode, and
    // the file is never readable by others, not even for a moment.
    Deno.writeFileSync(path, new Uint8Array(), { createNew: true, mode: 0o600 });
    return;
  }
  // Closing the last connection folds the legacy WAL into the file, so one rename moves it all.
  const old = new DatabaseSync(legacy);
  old.exec("pragma wal_checkpoint(truncate);");
  old.close();
  for (const suffix of ["-wal", "-shm"]) {
    if (exists(legacy + suffix)) Deno.removeSync(legacy + suffix);
  }
  Deno.renameSync(legacy, path);
}

function restrictFiles(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (exists(file)) Deno.chmodSync(file, 0o600);
  }
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}
