import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { DATABASE_FILE, openDatabase } from "../../storage/database.ts";
import { HistoryStore } from "../../storage/history_store.ts";
import { historyEntry } from "../support/history_entries.ts";
import { withTempDir } from "../support/temp_dir.ts";
import { runTolkProcess, serveArgs, tolkArgv } from "../support/tolk_process.ts";
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
