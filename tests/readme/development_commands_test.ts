/**
 * The README's development commands ("Development": `deno fmt`, `deno lint`, `deno check
 * main.ts`), run from the checkout: each passes on the tree as committed. `deno fmt` runs with
 * `--check`, its form that reports instead of rewriting the files.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runAsReader } from "../support/readme_commands.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

async function readmeDevelopmentCommands(): Promise<string[]> {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const line = readme.split("\n").find((text) => text.startsWith("- `deno fmt`"));
  assert.ok(line, "the README lists the development commands");
  return [...line.matchAll(/`([^`]+)`/g)].map(([, command]) => command);
}

Deno.test("the README's deno fmt, deno lint and deno check main.ts pass on the checkout", async () => {
  const commands = await readmeDevelopmentCommands();
  assert.deepEqual(commands, ["deno fmt", "deno lint", "deno check main.ts"]);
  const home = Deno.env.get("HOME") ?? "/root";
  for (const command of commands) {
    const run = await runAsReader(command === "deno fmt" ? "deno fmt --check" : command, home);
    assert.equal(run.code, 0, `${command}\n${run.stdout}${run.stderr}`);
  }
});
