/**
 * Opening a database read-only, also where SQLite alone cannot: a WAL database in a read-only
 * directory without its `-shm` file.
 */
import { DatabaseSync } from "node:sqlite";
import { withWalApplied } from "./wal_replay.ts";

/** SQLite's SQLITE_CANTOPEN primary result code (https://sqlite.org/rescode.html). */
export const SQLITE_CANTOPEN = 14;

/**
 * A read-only connection. SQLite reads a WAL database only where it finds or can make the
 * `-shm` file; in a read-only directory without one (after a clean close, or a copy that left
 * it out) the file is read into memory with the committed frames of its `-wal` applied
 * (storage/wal_replay.ts) and opened there. That is faithful: a writer always has a `-shm`, so
 * none is at work, and the log's committed frames are what SQLite's own recovery would read.
 * (An `immutable=1` URI would read the file in place but ignore the log, and Deno's permission
 * check takes the URI for a path and refuses it.)
 */
export function openReadOnly(path: string): DatabaseSync {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    // The open is lazy: the first read is where a missing -shm shows (prepared, since only a
    // statement's error carries SQLite's code).
    db.prepare("pragma user_version").get();
    return db;
  } catch (error) {
    db.close();
    const code = ((error as { errcode?: number }).errcode ?? 0) & 0xff;
    if (code !== SQLITE_CANTOPEN) throw error;
    const wal = fileSize(`${path}-wal`) > 0 ? Deno.readFileSync(`${path}-wal`) : new Uint8Array();
    return openInMemory(withWalApplied(Deno.readFileSync(path), wal));
  }
}

/** A query-only in-memory database holding `image`, a database file's bytes. */
function openInMemory(image: Uint8Array): DatabaseSync {
  // Header bytes 18 and 19 say WAL (2); a database in memory has no WAL, so it reads the copy
  // only as a rollback-journal file (1). The file itself is not touched.
  if (image[18] === 2 && image[19] === 2) image[18] = image[19] = 1;
  const db = new DatabaseSync(":memory:");
  db.deserialize(image);
  db.exec("pragma query_only = on;");
  return db;
}

function fileSize(path: string): number {
  try {
    return Deno.statSync(path).size;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return 0;
    throw error;
  }
}
