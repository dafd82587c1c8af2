/**
 * The README's note under "Permissions": `deno task start` grants the default folders only, so a
 * `TOLK_CONFIG`, `--data-dir` or `--models-dir` elsewhere must be added to its flags. A reader who
 * passes one without doing so must get one line naming that file or folder and the reason (exit
 * code 2, as for a data directory that cannot be used), not an uncaught `NotCapable` with a stack
 * trace, nor a line about another folder.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runAsReader } from "../support/readme_commands.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

/** The settings file the task's `tolk api enable` creates on a first run, said first. */
const CREATED = /^settings file .*settings\.json did not exist; created it$/;

/**
 * Runs `deno task start --port 0` plus `args` in a fresh home with `env`, `elsewhere` a folder
 * outside the task's grant; returns its exit code and its stderr lines but Deno's `Task` lines.
 */
async function startElsewhere(
  setUp: (elsewhere: string) => { args?: string; env?: Record<string, string> },
) {
  const home = await Deno.makeTempDir({ prefix: "tolk-start-folders-" });
  const elsewhere = await Deno.makeTempDir({ prefix: "tolk-start-elsewhere-" });
  try {
    const { args = "", env = {} } = setUp(elsewhere);
    const output = await runAsReader(`deno task start --port 0 ${args}`, home, env);
    const lines = output.stderr.split("\n").filter((line) =>
      line !== "" && !line.startsWith("Task ")
    );
    return { code: output.code, stderr: output.stderr, lines, elsewhere };
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(elsewhere, { recursive: true });
  }
}

Deno.test("the README says which paths `deno task start` needs added to its flags", async () => {
  const readme = (await Deno.readTextFile(join(ROOT, "README.md"))).replace(/\s+/g, " ");
  const note = readme.slice(readme.indexOf("- `deno task start` grants the default folders"));
  for (
    const words of [
      "With those, `TOLK_CONFIG`, `--data-dir` or `--models-dir` elsewhere, add the paths",
      "or run `deno task tolk api enable` and `deno task tolk serve …`, which may use any folder",
      "otherwise the task stops with one line naming the file or folder it may not use (exit code 2)",
    ]
  ) assert.ok(note.slice(0, 700).includes(words), words);
});

Deno.test("`deno task start --models-dir` outside the task's grant stops with one line naming the folder", async () => {
  const run = await startElsewhere((elsewhere) => ({ args: `--models-dir ${elsewhere}` }));
  // Every assertion shows the whole stderr: a failure seen once in seven loaded runs left
  // nothing to read.
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.lines.shift() ?? "", CREATED, run.stderr);
  assert.equal(run.lines.length, 1, run.stderr);
  const refusal = new RegExp(`^tolk serve: cannot read the models directory ${run.elsewhere}: `);
  assert.match(run.lines[0], refusal, run.stderr);
  assert.match(run.lines[0], /--models-dir/, run.stderr);
});

Deno.test("`deno task start --data-dir` outside the task's grant names the data folder, not its models folder", async () => {
  const run = await startElsewhere((elsewhere) => ({ args: `--data-dir ${elsewhere}/data` }));
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.lines.shift() ?? "", CREATED, run.stderr);
  assert.equal(run.lines.length, 1, run.stderr);
  const refusal = new RegExp(`^tolk serve: cannot use the data directory ${run.elsewhere}/data: `);
  assert.match(run.lines[0], refusal, run.stderr);
  assert.match(run.lines[0], /--data-dir/, run.stderr);
});

Deno.test("`TOLK_CONFIG=… deno task start` outside the task's grant stops with one line naming the file", async () => {
  const run = await startElsewhere((elsewhere) => ({
    env: { TOLK_CONFIG: `${elsewhere}/settings.json` },
  }));
  assert.equal(run.code, 2, run.stderr);
  assert.equal(run.lines.length, 1, run.stderr);
  assert.match(run.lines[0], new RegExp(`^settings file ${run.elsewhere}/settings\\.json: `));
  assert.match(run.lines[0], /TOLK_CONFIG/, run.stderr);
});
