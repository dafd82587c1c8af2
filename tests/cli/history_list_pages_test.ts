/**
 * `tolk history list` reads the history in pages (memory stays bounded at `--limit 10000`): the
 * lines are the same as one read would give, across page boundaries, with and without `--q`.
 */
import assert from "node:assert/strict";
import { openDataStores } from "../../storage/data_stores.ts";
import { historyEntry } from "../support/history_entries.ts";
import { runTolkProcess } from "../support/tolk_process.ts";

/** More rows than the largest `--limit`. */
const ROWS = 10_050;

/** The ids a list shows, in order (the second column of each line). */
function shownIds(stdout: string): string[] {
  return stdout.trimEnd().split("\n").map((line) => line.split("  ")[1]);
}

/** `tr_<i>` for i from `from` down, `count` of them (newest first). */
function idsDown(from: number, count: number, step = 1): string[] {
  return Array.from({ length: count }, (_, k) => `tr_${from - k * step}`);
}

Deno.test("tolk history list --limit N shows the N newest rows in order, N up to 10000, across pages", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "tolk-history-pages-" });
  try {
    const stores = openDataStores(dataDir);
    // One batch, one transaction: 10,050 transactions would be most of this test's time.
    for (let i = 0; i < ROWS; i++) {
      stores.history.recordSoon(
        historyEntry(i, { texts: [i % 3 === 0 ? `fizz ${i}` : `row ${i}`] }),
      );
    }
    stores.close();
    const cases: { args: string[]; ids: string[] }[] = [
      { args: ["--limit", "10000"], ids: idsDown(ROWS - 1, 10_000) },
      { args: ["--limit", "1234"], ids: idsDown(ROWS - 1, 1_234) },
      { args: ["--limit", "500"], ids: idsDown(ROWS - 1, 500) },
      { args: ["--limit", "501"], ids: idsDown(ROWS - 1, 501) },
      // Every third row holds "fizz": 3,350 of them, the newest is 10,047.
      { args: ["--limit", "10000", "--q", "FIZZ"], ids: idsDown(10_047, 3_350, 3) },
      { args: ["--limit", "700", "--q", "fizz"], ids: idsDown(10_047, 700, 3) },
    ];
    for (const { args, ids } of cases) {
      const result = await runTolkProcess(["history", "list", "--data-dir", dataDir, ...args]);
      assert.equal(result.code, 0, result.stderr);
      const shown = shownIds(result.stdout);
      assert.equal(shown.length, ids.length, args.join(" "));
      assert.deepEqual(shown, ids, args.join(" "));
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
