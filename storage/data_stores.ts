/**
 * The stores of one data directory, over one database.
 */
import { dirname, join } from "node:path";
import { type Database, DATABASE_FILE, type DatabaseOptions, openDatabase } from "./database.ts";
import { GlossaryStore } from "./glossary_store.ts";
import { HistoryStore } from "./history_store.ts";
import { MemoryStore } from "./memory_store.ts";

/** Every store of a data directory. */
export interface DataStores {
  readonly database: Database;
  readonly history: HistoryStore;
  readonly glossaries: GlossaryStore;
  readonly memory: MemoryStore;
  /** Writes the history rows still waiting, then closes the database. */
  close(): void;
}

/**
 * Opens the database of `dataDir` (or ":memory:") and its stores.
 *
 * @throws {StorageError} when the database cannot be created, opened or migrated.
 */
export function openDataStores(dataDir: string, options: DatabaseOptions = {}): DataStores {
  const database = openDatabase(
    dataDir === ":memory:" ? dataDir : join(dataDir, DATABASE_FILE),
    options,
  );
  const history = new HistoryStore(database);
  return {
    database,
    history,
    glossaries: new GlossaryStore(database),
    memory: new MemoryStore(database),
    close: () => {
      // Rows recorded in the last turn are written before the database closes (shutdown).
      history.flush();
      database.close();
    },
  };
}

/**
 * Why `dataDir` cannot hold a database because it, or a folder on its path, is a file (else the
 * reason would be mkdir's or SQLite's words about the database file inside it); null otherwise,
 * including when it does not exist yet (it is created) or another error comes (that one is
 * reported when the database is opened).
 */
export async function dataDirProblem(dataDir: string): Promise<string | null> {
  try {
    return (await Deno.stat(dataDir)).isDirectory ? null : "it is a file, not a directory";
  } catch (error) {
    if (!(error instanceof Deno.errors.NotADirectory)) return null;
  }
  // A folder on its path is a file: name the one the user can go and look at.
  for (let path = dirname(dataDir); path !== dirname(path); path = dirname(path)) {
    const found = await Deno.stat(path).catch(() => null);
    if (found?.isFile) return `${path} is a file, not a directory`;
  }
  return null;
}
