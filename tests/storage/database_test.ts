import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import {
  DATABASE_FILE,
  LEGACY_HISTORY_FILE,
  openDatabase,
  schemaVersion,
  StorageError,
} from "../../storage/database.ts";
import { MIGRATIONS } from "../../storage/migrations/migrations.ts";
import { HistoryStore } from "../../storage/history_store.ts";
import { encodeCursor } from "../../storage/page_cursor.ts";
import { historyEntry as entry } from "../support/history_entries.ts";
import { databaseFilesHolding } from "../support/bytes_search.ts";

const FIRST_RELEASE = new URL("../fixtures/storage/first_release_history.sqlite3", import.meta.url)
  .pathname;

async function withDir(fn: (dir: string) => Promise<void> | void) {
  const dir = await Deno.makeTempDir({ prefix: "tolk-db-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The path of a database in `dir` holding one history row (`tr_1`). */
function databaseWithOneRow(dir: string): string {
  const path = join(dir, DATABASE_FILE);
  const database = openDatabase(path);
  new HistoryStore(database).record(entry(1));
  database.close();
  return path;
}

Deno.test("a database written by the first release migrates to the newest schema with every row", async () => {
  await withDir((dir) => {
    Deno.copyFileSync(FIRST_RELEASE, join(dir, LEGACY_HISTORY_FILE));
    const database = openDatabase(join(dir, DATABASE_FILE));
    try {
      assert.equal(schemaVersion(database), MIGRATIONS[MIGRATIONS.length - 1].version);
      const history = new HistoryStore(database);
      const rows = [...history.all()];
      assert.equal(rows.length, 120);
      assert.equal(rows[0].id, "tr_00000000-0000-4000-8000-000000000119", "newest first");
      const oldest = rows[119];
      assert.deepEqual(oldest.texts, ['Row 0: "quoted", naïve café 東京', "second 0"]);
      assert.deepEqual(oldest.translations, ["Zeile 0", "zweite 0"]);
      assert.equal(oldest.client, "fixture-client/1.0");
      assert.equal(oldest.mode, "paragraph");
      assert.equal(oldest.format, "text");
      assert.throws(() => Deno.lstatSync(join(dir, LEGACY_HISTORY_FILE)), Deno.errors.NotFound);
    } finally {
      database.close();
    }
  });
});

Deno.test("the database and its WAL files are created with mode 0600", async () => {
  await withDir((dir) => {
    const path = join(dir, "data", DATABASE_FILE);
    const database = openDatabase(path);
    try {
      new HistoryStore(database).record(entry(1));
      for (const file of [path, `${path}-wal`, `${path}-shm`]) {
        assert.equal(Deno.statSync(file).mode! & 0o777, 0o600, file);
      }
      assert.equal(Deno.statSync(join(dir, "data")).mode! & 0o777, 0o700);
      const mode = database.db.prepare("pragma journal_mode").get() as { journal_mode: string };
      assert.equal(mode.journal_mode, "wal");
    } finally {
      database.close();
    }
  });
});

Deno.test("opening a migrated database again runs no migration twice and keeps its rows", async () => {
  await withDir((dir) => {
    const second = openDatabase(databaseWithOneRow(dir));
    try {
      assert.equal([...new HistoryStore(second).all()].length, 1);
    } finally {
      second.close();
    }
  });
});

Deno.test("a full database refuses a write with failure 'full' and keeps what was there (transaction)", async () => {
  await withDir((dir) => {
    const database = openDatabase(join(dir, DATABASE_FILE), { maxPageCount: 40 });
    try {
      const history = new HistoryStore(database);
      let written = 0;
      const error = (() => {
        try {
          for (; written < 10_000; written++) {
            history.record({ ...entry(written), texts: ["x".repeat(3000)] });
          }
        } catch (error) {
          return error;
        }
      })();
      assert.ok(error instanceof StorageError, String(error));
      assert.equal(error.failure, "full");
      assert.match(error.message, /full/);
      assert.equal(
        [...history.all()].length,
        written,
        "every completed write is there, no half row",
      );
    } finally {
      database.close();
    }
  });
});

Deno.test("a corrupt database file fails to open with failure 'corrupt' naming the path", async () => {
  await withDir((dir) => {
    const path = join(dir, DATABASE_FILE);
    Deno.writeTextFileSync(path, "this is not a database, just text ".repeat(200));
    assert.throws(() => openDatabase(path), (thrown) => {
      assert.ok(thrown instanceof StorageError);
      assert.equal(thrown.failure, "corrupt");
      assert.ok(thrown.message.includes(path));
      return true;
    });
  });
});

Deno.test("a failed transaction writes nothing", async () => {
  await withDir((dir) => {
    const database = openDatabase(join(dir, DATABASE_FILE));
    try {
      const history = new HistoryStore(database);
      assert.throws(() =>
        database.transaction(() => {
          history.record(entry(1));
          history.record(entry(1)); // same id: constraint violation
        })
      );
      assert.equal([...history.all()].length, 0);
    } finally {
      database.close();
    }
  });
});

Deno.test("a failed transaction whose pages spilled into the log leaves none of its text in the -wal", async () => {
  await withDir((dir) => {
    const database = openDatabase(join(dir, DATABASE_FILE));
    try {
      // A small page cache spills a long transaction's pages into the log before it commits, as
      // a large import does with the default cache: frames of text that is then rolled back.
      database.db.exec("pragma cache_size = 10;");
      const history = new HistoryStore(database);
      assert.throws(() =>
        database.transaction(() => {
          for (let i = 1; i <= 200; i++) {
            history.record({ ...entry(i), texts: [`rolled-back-8b3c ${"x".repeat(2000)}`] });
          }
          throw new Error("a late entry cannot be written");
        })
      );
      assert.equal([...history.all()].length, 0);
      assert.deepEqual(databaseFilesHolding(dir, "rolled-back-8b3c"), []);
    } finally {
      database.close();
    }
  });
});

Deno.test("reading (access read) never creates a database: missing, and 'outdated' for the first release's file", async () => {
  await withDir((dir) => {
    const path = join(dir, "nested", DATABASE_FILE);
    assert.throws(() => openDatabase(path, { access: "read" }), (error) => {
      assert.ok(error instanceof StorageError);
      assert.equal(error.failure, "missing");
      return error.message.includes(path);
    });
    assert.throws(() => openDatabase(path, { mustExist: true }), /there is no database/);
    assert.deepEqual([...Deno.readDirSync(dir)], [], "nothing was created");
    Deno.copyFileSync(FIRST_RELEASE, join(dir, LEGACY_HISTORY_FILE));
    assert.throws(
      () => openDatabase(join(dir, DATABASE_FILE), { access: "read" }),
      (error) => error instanceof StorageError && error.failure === "outdated",
    );
    assert.deepEqual([...Deno.readDirSync(dir)].map((entry) => entry.name), [LEGACY_HISTORY_FILE]);
  });
});

Deno.test("reading (access read) reads rows and refuses writes", async () => {
  await withDir((dir) => {
    const database = openDatabase(databaseWithOneRow(dir), { access: "read" });
    try {
      const history = new HistoryStore(database);
      assert.deepEqual([...history.all()].map((row) => row.id), ["tr_1"]);
      assert.throws(() => history.record(entry(2)), (error) => {
        return error instanceof StorageError && error.failure === "read_only";
      });
    } finally {
      database.close();
    }
  });
});

Deno.test("migration 6 keeps every history row at its position, so a cursor handed out before pages on", async () => {
  await withDir((dir) => {
    const path = join(dir, DATABASE_FILE);
    const old = new DatabaseSync(path);
    for (const migration of MIGRATIONS.filter((step) => step.version <= 5)) old.exec(migration.sql);
    old.exec("pragma user_version = 5");
    const insert = old.prepare(
      `insert into translation_history (id, created, engine, model, source, target, texts,
       translations) values (?, 1800000000, 'e', 'm', 'en', 'de', '["t"]', '["T"]')`,
    );
    for (let i = 1; i <= 5; i++) insert.run(`tr_${i}`);
    old.exec("delete from translation_history where id in ('tr_2', 'tr_5')");
    old.close();
    const database = openDatabase(path);
    try {
      const history = new HistoryStore(database);
      const ids = (cursor?: string) =>
        history.list({ limit: 10, cursor }).entries.map((row) => row.id);
      assert.deepEqual(ids(), ["tr_4", "tr_3", "tr_1"]);
      assert.deepEqual(ids(encodeCursor("h", 4)), ["tr_3", "tr_1"], "the cursor of row 4");
      history.delete("tr_4");
      history.delete("tr_3");
      history.record(entry(6));
      assert.deepEqual(ids(encodeCursor("h", 4)), ["tr_1"], "row 6 is newer than row 4");
    } finally {
      database.close();
    }
  });
});
