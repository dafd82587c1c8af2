/**
 * Logs failed writes of history and memory once per failure class, so a full disk is one clear
 * line instead of one per request, and says when writes work again.
 */
import { type StorageFailure, toStorageError } from "./database.ts";

/** What a background write was for. */
export type StoredKind = "history" | "memory";

/** Reports one failed or successful background write. */
export interface FailureLog {
  /** Logs the failure unless the same kind already failed the same way since the last success. */
  failed(kind: StoredKind, error: unknown, path: string): void;
  /** Records a success; the next failure is logged again. */
  succeeded(kind: StoredKind): void;
}

/** A {@link FailureLog} writing to `log` (lines never carry request text). */
export function createFailureLog(log: (line: string) => void): FailureLog {
  const failing = new Map<StoredKind, StorageFailure>();
  return {
    failed(kind, error, path) {
      const storageError = toStorageError(error, path);
      if (failing.get(kind) === storageError.failure) return;
      failing.set(kind, storageError.failure);
      log(
        `${kind} write failed, translations continue without it: ${storageError.message}`,
      );
    },
    succeeded(kind) {
      if (!failing.delete(kind)) return;
      log(`${kind} writes work again`);
    },
  };
}
