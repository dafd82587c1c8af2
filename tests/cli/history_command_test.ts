import assert from "node:assert/strict";
import { join } from "node:path";
import { HistoryEntrySchema } from "../../schemas/history.ts";
import { openDataStores } from "../../storage/data_stores.ts";
import { historyEntry } from "../support/history_entries.ts";
import { mountTmpfs } from "../support/small_filesystem.ts";
import { runTolkProcess, tolkArgv } from "../support/tolk_process.ts";

/** Writes `count` rows into the database of `dataDir`. */
function recordRows(dataDir: string, count: number) {
  const stores = openDataStores(dataDir);
  for (let i = 0; i < count; i++) {
    stores.history.record({
      id: `tr_cli_${i}`,
      created: 1_800_000_000 + i,
      client: null,
      engine: "local-llm",
      model: "m",
      source: "fr",
      target: "en",
      mode: "paragraph",
      format: "text",
      texts: [`Bonjour ${i}\nsecond line`],
      translations: [`Hello ${i}`],
    });
  }
  stores.close();
}

async function withHistory(count: number, fn: (dataDir: string) => Promise<void>) {
  const dataDir = await Deno.makeTempDir({ prefix: "tolk-history-cli-" });
  recordRows(dataDir, count);
  try {
    await fn(dataDir);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
}

Deno.test("tolk history list prints one line per row, newest first, bounded by --limit", async () => {
  await withHistory(5, async (dataDir) => {
    const result = await runTolkProcess(["history", "list", "--data-dir", dataDir, "--limit", "3"]);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trim().split("\n");
    assert.equal(lines.length, 3);
    assert.match(
      lines[0],
      /^2027-\d\d-\d\dT[\d:]+Z {2}tr_cli_4 {2}fr→en {2}local-llm {2}Bonjour 4 second line$/,
    );
    assert.ok(lines[2].includes("tr_cli_2"));
  });
});

Deno.test("tolk history list --q TEXT shows the rows whose texts or translations hold it, any ASCII case", async () => {
  await withHistory(5, async (dataDir) => {
    for (const [q, ids] of [["BONJOUR 3", ["tr_cli_3"]], ["hello 1", ["tr_cli_1"]]] as const) {
      const result = await runTolkProcess(["history", "list", "--data-dir", dataDir, "--q", q]);
      assert.equal(result.code, 0, result.stderr);
      const shown = result.stdout.trim().split("\n").map((line) => line.split("  ")[1]);
      assert.deepEqual(shown, ids, q);
    }
  });
});

Deno.test("tolk history export writes every row as JSON Lines; clear empties it (TOLK_DATA_DIR)", async () => {
  await withHistory(3, async (dataDir) => {
    const exported = await runTolkProcess(["history", "export"], { TOLK_DATA_DIR: dataDir });
    assert.equal(exported.code, 0, exported.stderr);
    const rows = exported.stdout.trim().split("\n").map((line) =>
      HistoryEntrySchema.parse(JSON.parse(line))
    );
    assert.deepEqual(rows.map((row) => row.id), ["tr_cli_2", "tr_cli_1", "tr_cli_0"]);
    assert.deepEqual(rows[2].texts, ["Bonjour 0\nsecond line"]);
    const cleared = await runTolkProcess(["history", "clear", "--data-dir", dataDir]);
    assert.equal(cleared.code, 0);
    assert.match(cleared.stderr, /cleared 3 history rows/);
    const after = await runTolkProcess(["history", "export", "--data-dir", dataDir]);
    assert.equal(after.stdout, "");
  });
});

Deno.test("tolk history list shows a text's control characters as U+FFFD: no escape sequence reaches the terminal", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "tolk-history-cli-" });
  try {
    const stores = openDataStores(dataDir);
    stores.history.record(
      historyEntry(1, { texts: ["Red \x1b[31malert\x1b[0m \x1b]52;c;cm0gLXJm\x07 \x9b2J"] }),
    );
    stores.close();
    const result = await runTolkProcess(["history", "list", "--data-dir", dataDir]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(
      result.stdout.endsWith(
        "  Red \ufffd[31malert\ufffd[0m \ufffd]52;c;cm0gLXJm\ufffd \ufffd2J\n",
      ),
    );
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("tolk history list shows bidirectional controls as U+FFFD: a text cannot reorder the line it is shown on", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "tolk-history-cli-" });
  try {
    const stores = openDataStores(dataDir);
    // U+202E (right-to-left override) would show "gpj.exe" as "exe.jpg" (Trojan Source).
    stores.history.record(
      historyEntry(1, { texts: ["photo\u202Egpj.exe \u2066x\u2069 \u200Fy\u061C"] }),
    );
    stores.close();
    const result = await runTolkProcess(["history", "list", "--data-dir", dataDir]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(
      result.stdout.endsWith("  photo\ufffdgpj.exe \ufffdx\ufffd \ufffdy\ufffd\n"),
      JSON.stringify(result.stdout),
    );
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("tolk history export escapes U+2028, U+2029 and U+0085: a reader that splits on any line break sees one row per line", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "tolk-history-cli-" });
  try {
    const texts = ["one\u2028two", "three\u2029four", "five\u0085six"];
    const stores = openDataStores(dataDir);
    stores.history.record(historyEntry(1, { texts, translations: texts }));
    stores.history.record(historyEntry(2));
    stores.close();
    const result = await runTolkProcess(["history", "export", "--data-dir", dataDir]);
    assert.equal(result.code, 0, result.stderr);
    // Python's str.splitlines() breaks lines at each of them (the C0 ones JSON escapes anyway).
    const lines = result.stdout.trimEnd().split(/\r\n|[\n\r\x85\u2028\u2029]/);
    assert.equal(lines.length, 2, result.stdout);
    const rows = lines.map((line) => HistoryEntrySchema.parse(JSON.parse(line)));
    assert.deepEqual(rows[1].texts, texts);
    assert.deepEqual(rows[1].translations, texts);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

for (const action of ["list", "export"]) {
  Deno.test(`tolk history ${action} to a full disk says so in one line and exits 1`, async () => {
    await withHistory(3, async (dataDir) => {
      const [program, ...argv] = tolkArgv(["history", action, "--data-dir", dataDir]);
      const output = await new Deno.Command("sh", {
        args: ["-c", 'exec "$@" > /dev/full', "sh", program, ...argv],
        env: { NO_COLOR: "1" },
        stdout: "null",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(output.stderr);
      assert.equal(output.code, 1, stderr);
      assert.match(stderr, /^tolk history: cannot write to stdout: No space left on device.*\n$/);
    });
  });
}

Deno.test("tolk history export into a pipe its reader closed stops reading, quietly, with exit code 0", async () => {
  await withHistory(3000, async (dataDir) => {
    const [program, ...argv] = tolkArgv(["history", "export", "--data-dir", dataDir]);
    const child = new Deno.Command(program, {
      args: argv,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const reader = child.stdout.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
    assert.match(first, /^\{"id":"tr_cli_2999"/);
    assert.equal(status.code, 0);
    assert.equal(stderr, "");
  });
});

for (const action of ["list", "export"]) {
  Deno.test(`tolk history ${action} of a database corrupt past its first page says so in one line and exits 1`, async () => {
    await withHistory(300, async (dataDir) => {
      // Page 1 (header and schema) stays readable, so the damage shows only when rows are read.
      const path = join(dataDir, "tolk.sqlite3");
      const bytes = Deno.readFileSync(path);
      bytes.fill(0xff, 4096);
      Deno.writeFileSync(path, bytes);
      const result = await runTolkProcess(["history", action, "--data-dir", dataDir]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(
        result.stderr,
        /^tolk history: the database file is corrupt or not a database \(.*\)\n$/,
      );
    });
  });
}

Deno.test("tolk history with no action exits 2 with one line", async () => {
  const result = await runTolkProcess(["history"]);
  assert.equal(result.code, 2);
  assert.equal(result.stderr.trim().split("\n").length, 1);
  assert.match(result.stderr, /list, clear or export/);
});

Deno.test("tolk history clear and export refuse list's --q and --limit (exit 2) and keep every row", async () => {
  await withHistory(3, async (dataDir) => {
    // `list --q` turned into `clear --q` reads as "clear those rows"; it must not empty them all.
    for (
      const flags of [["--q", "Bonjour 1"], ["--limit", "1"], ["--q=Bonjour 1"], ["--limit=1"]]
    ) {
      for (const action of ["clear", "export"]) {
        const result = await runTolkProcess(["history", action, "--data-dir", dataDir, ...flags]);
        assert.equal(result.code, 2, `${action} ${flags}: ${result.stderr}`);
        assert.equal(result.stdout, "", `${action} ${flags}`);
        const name = flags[0].split("=")[0];
        assert.equal(result.stderr, `tolk history: ${name}: only applies to list\n`);
      }
    }
    const listed = await runTolkProcess(["history", "list", "--data-dir", dataDir]);
    assert.equal(listed.stdout.trim().split("\n").length, 3, "every row is kept");
  });
});

Deno.test("tolk history list and export read a read-only data directory; clear says it needs write access", async () => {
  const tmpfs = await mountTmpfs(1024);
  const dir = tmpfs?.path ?? await Deno.makeTempDir({ prefix: "tolk-history-readonly-" });
  const dataDir = join(dir, "data");
  recordRows(dataDir, 2);
  const files = () => [...Deno.readDirSync(dataDir)].map((entry) => entry.name).sort();
  const before = files();
  try {
    // As root, permission bits do not stop writes: a read-only mount does.
    if (tmpfs) await tmpfs.makeReadOnly();
    else await Deno.chmod(dataDir, 0o555);
    const listed = await runTolkProcess(["history", "list", "--data-dir", dataDir]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(listed.stdout.trim().split("\n").length, 2, listed.stdout);
    const exported = await runTolkProcess(["history", "export", "--data-dir", dataDir]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.deepEqual(
      exported.stdout.trim().split("\n").map((line) =>
        HistoryEntrySchema.parse(JSON.parse(line)).id
      ),
      ["tr_cli_1", "tr_cli_0"],
    );
    const cleared = await runTolkProcess(["history", "clear", "--data-dir", dataDir]);
    assert.equal(cleared.code, 2, cleared.stderr);
    assert.equal(cleared.stderr.trim().split("\n").length, 1, cleared.stderr);
    assert.match(cleared.stderr, /clearing needs write access and .*read-only/);
    assert.ok(cleared.stderr.includes(dataDir), cleared.stderr);
    assert.deepEqual(files(), before, "nothing was written beside the database");
  } finally {
    if (tmpfs) await tmpfs.unmount();
    else {
      await Deno.chmod(dataDir, 0o755);
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("tolk history list and export read a read-only copy that holds a -wal but no -shm", async () => {
  const tmpfs = await mountTmpfs(1024);
  const dir = tmpfs?.path ?? await Deno.makeTempDir({ prefix: "tolk-history-wal-" });
  const source = await Deno.makeTempDir({ prefix: "tolk-history-live-" });
  const dataDir = join(dir, "data");
  await Deno.mkdir(dataDir);
  try {
    // A copy taken while the service runs: the newest rows are only in the log, and a backup
    // leaves out the -shm (a transient index SQLite rebuilds wherever it may write).
    const live = openDataStores(source);
    for (let i = 0; i < 3; i++) live.history.record({ ...historyEntry(i), id: `tr_wal_${i}` });
    for (const file of ["tolk.sqlite3", "tolk.sqlite3-wal"]) {
      await Deno.copyFile(join(source, file), join(dataDir, file));
    }
    live.close();
    assert.ok((await Deno.stat(join(dataDir, "tolk.sqlite3-wal"))).size > 0, "rows in the log");
    if (tmpfs) await tmpfs.makeReadOnly();
    else await Deno.chmod(dataDir, 0o555);
    const listed = await runTolkProcess(["history", "list", "--data-dir", dataDir]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(listed.stdout.trim().split("\n").map((line) => line.split("  ")[1]), [
      "tr_wal_2",
      "tr_wal_1",
      "tr_wal_0",
    ]);
    const exported = await runTolkProcess(["history", "export", "--data-dir", dataDir]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(exported.stdout.trim().split("\n").length, 3);
  } finally {
    await Deno.remove(source, { recursive: true });
    if (tmpfs) await tmpfs.unmount();
    else {
      await Deno.chmod(dataDir, 0o755);
      await Deno.remove(dir, { recursive: true });
    }
  }
});

for (const action of ["list", "export", "clear"]) {
  Deno.test(`tolk history ${action} with no database says "no history at DIR", exits 1 and creates nothing`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "tolk-history-missing-" });
    try {
      for (const dataDir of [join(dir, "typo"), dir]) {
        const result = await runTolkProcess(["history", action, "--data-dir", dataDir]);
        assert.equal(result.code, 1, result.stderr);
        assert.equal(result.stdout, "");
        assert.equal(
          result.stderr,
          `tolk history: no history at ${dataDir} (no tolk.sqlite3 there)\n`,
        );
      }
      assert.deepEqual([...Deno.readDirSync(dir)], [], "no directory or database was created");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
