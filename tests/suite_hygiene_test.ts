import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const TESTS_DIR = fileURLToPath(new URL("./", import.meta.url));

// deno fmt indents every body: a statement at column 0 runs when the module loads.
const DECLARATION = /^(export\s+)?(async\s+)?(function|interface|type|class|import|Deno\.test)\b/;
/** A comment line runs nothing ("…or its start (a message…" is prose). */
const COMMENT = /^(\/\/|\/\*|\*)/;
const STARTS_SOMETHING = /\b(start\w*|spawn|Deno\.serve|new Deno\.Command)\s*\(/;

async function* testFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory && entry.name !== "fixtures") yield* testFiles(`${path}/`);
    else if (entry.isFile && entry.name.endsWith("_test.ts")) yield path;
  }
}

Deno.test("no test file starts a server, daemon or process when it is loaded (a --filter run leaks none)", async () => {
  const offenders: string[] = [];
  for await (const path of testFiles(TESTS_DIR)) {
    const lines = (await Deno.readTextFile(path)).split("\n");
    lines.forEach((line, index) => {
      if (/^\s/.test(line) || DECLARATION.test(line) || COMMENT.test(line)) return;
      if (STARTS_SOMETHING.test(line)) offenders.push(`${path}:${index + 1}: ${line}`);
    });
  }
  assert.deepEqual(offenders, []);
});
