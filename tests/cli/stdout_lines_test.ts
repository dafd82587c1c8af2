import assert from "node:assert/strict";
import { OutputError, writeLines } from "../../cli/stdout_lines.ts";

/** A pipe that takes at most `take` bytes a write, and fails with `error` from write `failAt`. */
function sink(take: number, failAt = Infinity, error: Error = new Deno.errors.BrokenPipe()) {
  const bytes: number[] = [];
  let writes = 0;
  return {
    bytes,
    writeSync(chunk: Uint8Array): number {
      if (++writes >= failAt) throw error;
      const taken = chunk.subarray(0, take);
      bytes.push(...taken);
      return taken.length;
    },
  };
}

Deno.test("writeLines writes every byte of every line when the pipe takes a few at a time", () => {
  const lines = ["één", "", "二三", "x".repeat(40_000)];
  const out = sink(7);
  assert.equal(writeLines(lines, out), true);
  assert.equal(new TextDecoder().decode(new Uint8Array(out.bytes)), `${lines.join("\n")}\n`);
});

Deno.test("writeLines stops reading its lines once the reader has closed the pipe", () => {
  let read = 0;
  function* rows() {
    for (; read < 100_000; read++) yield "row ".repeat(10);
  }
  assert.equal(writeLines(rows(), sink(1 << 20, 2)), false);
  assert.ok(read < 10_000, `${read} rows read for a closed pipe`);
});

Deno.test("writeLines throws OutputError with the system's reason for any other write failure", () => {
  const full = sink(1 << 20, 1, new Error("No space left on device (os error 28)"));
  assert.throws(() => writeLines(["a"], full), OutputError);
  assert.throws(() => writeLines(["a"], full), /No space left on device/);
});
