/**
 * Whether a file's bytes hold a text: the privacy tests look for what must not stay on the disk.
 */
import { join } from "node:path";
import { DATABASE_FILE } from "../../storage/database.ts";

/** Where `needle` first starts in `haystack`, or -1. */
export function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** The files of the database in `dataDir`: the file, its write-ahead log and its index. */
export const DATABASE_FILES = [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`];

/**
 * Which of the database files of `dataDir` hold `text` (ASCII: as JSON and SQLite store it);
 * a file that is not there holds nothing.
 */
export function databaseFilesHolding(dataDir: string, text: string): string[] {
  const needle = new TextEncoder().encode(text);
  return DATABASE_FILES.filter((name) => {
    let bytes: Uint8Array;
    try {
      bytes = Deno.readFileSync(join(dataDir, name));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
    return indexOfBytes(bytes, needle) >= 0;
  });
}
