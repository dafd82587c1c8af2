import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { DATABASE_FILE, openDatabase } from "../../storage/database.ts";
import { HistoryStore } from "../../storage/history_store.ts";
import { historyEntry } from "../support/history_entries.ts";
import { withTempDir } from "../support/temp_dir.ts";
import { tolkFolders } from "../support/serve_process.ts";
import { databaseFilesHolding } from "../support/bytes_search.ts";
import { runTolkProcess, serveArgs, startTolkServer, tolkArgv } from "../support/tolk_process.ts";
import { FIXTURE_MODELS_DIR } from "../support/translation_service.ts";

/** Runs `tolk serve` on `dataDir` expecting a refusal; returns its stderr. */
async function refusedServe(dir: string, dataDir: string): Promise<string> {
  const args = serveArgs({
    config: join(dir, "settings.json"),
    dataDir,
    modelsDir: FIXTURE_MODELS_DIR,
  });
  const [program, ...argv] = tolkArgv(args);
  // A service that starts instead of refusing would never exit: it is stopped after 20 s.
  const output = await new Deno.Command(program, {
    args: argv,
    env: { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    stdin: "null",
    signal: AbortSignal.timeout(20_000),
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 2, stderr);
  assert.equal(new TextDecoder().decode(output.stdout), "");
  return stderr;
}

/** The one line of `stderr` that says why the service did not start. */
function refusal(stderr: string): string {
  const lines = stderr.split("\n").filter((line) => line.startsWith("tolk serve:"));
  assert.equal(lines.length, 1, stderr);
  return lines[0];
}

/**
 * The files of the data directory with their sizes and a digest of their bytes, to compare
 * (a diff of the bytes themselves would take minutes to print).
 */
async function snapshot(dataDir: string): Promise<string[]> {
  const files = [];
  for (const entry of Deno.readDirSync(dataDir)) {
    const bytes = Deno.readFileSync(join(dataDir, entry.name));
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    files.push(`${entry.name} ${bytes.length} ${digest.slice(0, 8).join(".")}`);
  }
  return files.sort();
}

/** A data directory with a database of 150 history rows; returns the database's path. */
function dataDirWithRows(dataDir: string): string {
  Deno.mkdirSync(dataDir, { mode: 0o700 });
  const path = join(dataDir, DATABASE_FILE);
  const database = openDatabase(path);
  const history = new HistoryStore(database);
  for (let i = 1; i <= 150; i++) history.record(historyEntry(i, { texts: ["x".repeat(600)] }));
  history.flush();
  database.close();
  return path;
}

Deno.test("tolk serve refuses a database written by a newer tolk in one line and leaves it untouched", async () => {
  await withTempDir("tolk-cli-test-", async (dir) => {
    const dataDir = join(dir, "data");
    const path = dataDirWithRows(dataDir);
    const db = new DatabaseSync(path);
    db.exec("pragma user_version = 99; create table from_the_future (a);");
    db.close();
    const before = await snapshot(dataDir);
    assert.match(
      refusal(await refusedServe(dir, dataDir)),
      /newer release of tolk.*schema version 99, this release knows up to \d+\); it is left as it is: run the newer tolk/,
    );
    assert.deepEqual(await snapshot(dataDir), before, "the file is as it was");
    const listed = await runTolkProcess(["history", "list", "--data-dir", dataDir]);
    assert.equal(listed.code, 2);
    assert.match(listed.stderr, /newer release of tolk/);
    // A read-only connection leaves an empty -wal and the -shm it read through, as any list does.
    assert.equal((await snapshot(dataDir))[0], before[0], "the database file is as it was");
  });
});

for (
  const [name, damage] of [
    [
      "a file that is not SQLite",
      () => new TextEncoder().encode("hello ".repeat(900)),
    ],
    ["a truncated database", (bytes: Uint8Array) => bytes.subarray(0, bytes.length / 2)],
    ["a database cut to its header", (bytes: Uint8Array) => bytes.subarray(0, 100)],
  ] as const
) {
  Deno.test(`tolk serve refuses ${name} in one line and leaves it untouched`, async () => {
    await withTempDir("tolk-cli-test-", async (dir) => {
      const dataDir = join(dir, "data");
      const path = dataDirWithRows(dataDir);
      Deno.writeFileSync(path, damage(Deno.readFileSync(path)));
      const before = await snapshot(dataDir);
      assert.match(
        refusal(await refusedServe(dir, dataDir)),
        /corrupt or not a database.*; it is left as it is: restore it from a backup, or move it aside/,
      );
      assert.deepEqual(await snapshot(dataDir), before, "the file is as it was");
    });
  });
}

Deno.test("a memory entry deleted while a reader held the log is answered at once and gone from the disk once tolk serve stops (SIGTERM)", async () => {
  await withTempDir("tolk-cli-test-", async (dir) => {
    const env = tolkFolders(dir);
    const token = (await runTolkProcess(["api", "enable"], env)).stdout.trim();
    const server = await startTolkServer(["serve", "--port", "0"], env);
    const secret = "erase-at-exit-5e1d";
    const reader = new DatabaseSync(join(dir, DATABASE_FILE), { readOnly: true });
    try {
      const request = (method: string, path: string, body?: unknown) =>
        fetch(`${server.url}${path}`, {
          method,
          headers: { "x-svc-token": token, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const added = await request("POST", "/v1/memory/entries", {
        source_lang: "en",
        target_lang: "de",
        entries: [{ source: `${secret} ${"private ".repeat(100)}`, target: "geheim" }],
      });
      assert.equal(added.status, 201, await added.text());
      const [entry] = (await (await request("GET", "/v1/memory/entries")).json()).data;
      // A reader at work (a `tolk history list`) keeps the log as it is: the delete's
      // checkpoint cannot empty it, and the entry's text stays in the -wal for now.
      reader.exec("begin");
      reader.prepare("select count(*) from memory_entries").get();
      const started = performance.now();
      const deleted = await request("DELETE", `/v1/memory/entries/${entry.id}`);
      assert.equal(deleted.status, 204);
      // Nor does the service wait for the reader (its busy timeout, 5 s with every other
      // request stalled behind it: the database is used on the one thread that serves).
      assert.ok(performance.now() - started < 1_000, `${performance.now() - started} ms`);
      assert.deepEqual(databaseFilesHolding(dir, secret), [`${DATABASE_FILE}-wal`]);
      reader.exec("commit");
    } finally {
      reader.close();
      assert.equal(await server.stop(), 0);
    }
    // README: the log is kept "until the next such change or the service's exit".
    assert.deepEqual(databaseFilesHolding(dir, secret), []);
  });
});
