/**
 * The stores of one data directory, over one database.
 */
import { join } from "node:path";
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
