/**
 * The ordered schema migrations: `MIGRATIONS[i].version` is the `user_version` a database is
 * at after it. Never edit a released migration; append a new one.
 */
import { HISTORY_TABLE } from "./001_history.ts";
import { HISTORY_MODE_FORMAT } from "./002_history_mode_format.ts";
import { GLOSSARY_TABLES } from "./003_glossaries.ts";
import { MEMORY_TABLES } from "./004_memory.ts";
import { MEMORY_STEERING } from "./005_memory_steering.ts";
import { HISTORY_SEQUENCE } from "./006_history_sequence.ts";
import { MEMORY_SEQUENCE } from "./007_memory_sequence.ts";
import { GLOSSARY_INVISIBLE } from "./008_glossary_invisible.ts";
import { memoryLineKeys } from "./009_memory_line_keys.ts";
import type { DatabaseSync } from "node:sqlite";

/** One step of the schema. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** A step SQL cannot write (a key computed as the store computes it), run after `sql`. */
  run?: (db: DatabaseSync) => void;
  /**
   * Run with foreign keys off (SQLite's procedure for rebuilding a table others reference,
   * https://sqlite.org/lang_altertable.html#otheralter): with them on, dropping the old table
   * deletes its rows first, cascading into the tables that reference it.
   */
  rebuildsReferencedTable?: boolean;
}

/** Every migration, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: "history", sql: HISTORY_TABLE },
  { version: 2, name: "history mode and format", sql: HISTORY_MODE_FORMAT },
  { version: 3, name: "glossaries", sql: GLOSSARY_TABLES },
  { version: 4, name: "translation memory", sql: MEMORY_TABLES },
  { version: 5, name: "memory steering", sql: MEMORY_STEERING },
  { version: 6, name: "history sequence", sql: HISTORY_SEQUENCE },
  { version: 7, name: "memory sequence", sql: MEMORY_SEQUENCE, rebuildsReferencedTable: true },
  { version: 8, name: "glossary invisible characters", sql: GLOSSARY_INVISIBLE },
  { version: 9, name: "memory line keys", sql: "", run: memoryLineKeys },
];
