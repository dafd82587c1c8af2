/**
 * The README's `deno task bench` on a machine without `wrk` (BENCHMARKS.md: bench:serve needs it):
 * its first benchmark, `deno task bench:serve`, must say so in one line rather than start three
 * servers and stop with a TypeError that leaves them running; nor may a machine without taskset
 * (macOS) stop it at its first line.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runAsReader } from "../support/readme_commands.ts";

Deno.test("`deno task bench:serve` without wrk on PATH says so in one line and skips", async () => {
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  assert.ok(readme.includes("`deno task bench` runs the benchmarks"), "the README names the task");
  const { tasks } = JSON.parse(
    await Deno.readTextFile(new URL("../../deno.json", import.meta.url)),
  );
  assert.match(tasks.bench.command, /^deno task bench:serve && /);

  // A PATH holding deno alone: no wrk, no taskset.
  const bin = await Deno.makeTempDir({ prefix: "tolk-bench-path-" });
  try {
    await Deno.symlink(Deno.execPath(), join(bin, "deno"));
    const home = Deno.env.get("HOME") ?? "/root";
    const deno = join(bin, "deno");
    const run = await runAsReader(`PATH=${bin} ${deno} task -q bench:serve`, home);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /^bench:serve skipped: no wrk on PATH \(apt-get install wrk\)/);
    assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
  } finally {
    await Deno.remove(bin, { recursive: true });
  }
});
