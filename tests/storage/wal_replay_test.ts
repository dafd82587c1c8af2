import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { withWalApplied } from "../../storage/wal_replay.ts";

/** A WAL database whose rows 1..`commits` are each one commit still in the log. */
async function liveDatabase(commits: number) {
  const dir = await Deno.makeTempDir({ prefix: "tolk-wal-replay-" });
  const path = join(dir, "db.sqlite3");
  const db = new DatabaseSync(path);
  db.exec("pragma journal_mode = wal; pragma wal_autocheckpoint = 0;");
  db.exec("create table t (n integer)");
  for (let n = 1; n <= commits; n++) db.prepare("insert into t values (?)").run(n);
  const bytes = { file: Deno.readFileSync(path), wal: Deno.readFileSync(`${path}-wal`) };
  db.close();
  await Deno.remove(dir, { recursive: true });
  return bytes;
}

function rows(image: Uint8Array): number[] {
  if (image[18] === 2) image[18] = image[19] = 1; // in memory: no WAL
  const db = new DatabaseSync(":memory:");
  db.deserialize(image);
  const found = db.prepare("select n from t order by n").all().map((row) => Number(row.n));
  db.close();
  return found;
}

Deno.test("withWalApplied gives the committed rows of the log; a torn last frame is left out", async () => {
  const { file, wal } = await liveDatabase(3);
  assert.deepEqual(rows(withWalApplied(file, wal)), [1, 2, 3]);
  const pageSize = new DataView(wal.buffer).getUint32(8);
  // The last commit (its one frame) cut in half, as a copy taken mid-write has it.
  const torn = wal.subarray(0, wal.length - pageSize / 2);
  assert.deepEqual(rows(withWalApplied(file, torn)), [1, 2]);
  const garbled = wal.slice();
  garbled[garbled.length - 1] ^= 0xff;
  assert.deepEqual(rows(withWalApplied(file, garbled)), [1, 2], "a bad checksum ends the log");
  assert.equal(withWalApplied(file, new Uint8Array(10)), file, "no log: the file as it is");
});
