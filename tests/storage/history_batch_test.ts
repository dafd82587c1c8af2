/**
 * History rows recorded by the service are written in batches (storage/history_store.ts): one
 * transaction per turn of the event loop, none lost at a read or at shutdown.
 */
import assert from "node:assert/strict";
import { type DataStores, openDataStores } from "../../storage/data_stores.ts";
import { StorageError } from "../../storage/database.ts";
import { historyEntry as entry } from "../support/history_entries.ts";
import { withTempDir } from "../support/temp_dir.ts";

/** Runs `fn` with the stores of `dir` (a fresh directory by default), closed afterwards. */
async function withStores(
  fn: (stores: DataStores, dir: string) => Promise<void>,
  dir?: string,
): Promise<void> {
  if (dir === undefined) {
    return withTempDir("tolk-history-batch-", (fresh) => withStores(fn, fresh));
  }
  const stores = openDataStores(dir);
  try {
    await fn(stores, dir);
  } finally {
    stores.close();
  }
}

Deno.test("rows recorded in one turn are written together on the next turn, and their promise resolves", async () => {
  await withStores(async (stores, dir) => {
    const written = Array.from({ length: 50 }, (_, i) => stores.history.recordSoon(entry(i)));
    // Another connection sees nothing before the batch is written: it is not written row by row.
    const reader = openDataStores(dir);
    try {
      assert.equal(reader.history.list({ limit: 100 }).entries.length, 0);
      await Promise.all(written);
      const rows = reader.history.list({ limit: 100 }).entries;
      assert.equal(rows.length, 50);
      assert.equal(rows[0].id, "tr_49", "newest first, in recording order");
    } finally {
      reader.close();
    }
  });
});

Deno.test("a list, a delete or a clear right after recordSoon sees the waiting rows", async () => {
  await withStores(async ({ history }) => {
    const first = history.recordSoon(entry(1));
    assert.deepEqual(history.list({ limit: 10 }).entries.map((row) => row.id), ["tr_1"]);
    await first;
    const second = history.recordSoon(entry(2));
    assert.equal(history.delete("tr_2"), true);
    await second;
    const third = history.recordSoon(entry(3));
    assert.equal(history.clear(), 2);
    await third;
  });
});

Deno.test("closing the stores writes the rows still waiting (shutdown loses no history)", async () => {
  await withTempDir("tolk-history-batch-", async (dir) => {
    const stores = openDataStores(dir);
    const written = Array.from({ length: 20 }, (_, i) => stores.history.recordSoon(entry(i)));
    stores.close();
    await Promise.all(written);
    await withStores(({ history }) => {
      assert.equal(history.list({ limit: 100 }).entries.length, 20);
      return Promise.resolve();
    }, dir);
  });
});

Deno.test("a batch that cannot be written rejects every row's promise with a StorageError, and the next batch is written", async () => {
  await withStores(async ({ history }) => {
    history.record(entry(0));
    // A second row with the same id breaks the primary key: the whole batch is rolled back.
    const failed = [history.recordSoon(entry(1)), history.recordSoon(entry(0))];
    for (const outcome of await Promise.allSettled(failed)) {
      assert.equal(outcome.status, "rejected");
      assert.ok(outcome.reason instanceof StorageError);
    }
    await history.recordSoon(entry(2));
    assert.deepEqual(history.list({ limit: 10 }).entries.map((row) => row.id), ["tr_2", "tr_0"]);
  });
});
