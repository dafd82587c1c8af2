/**
 * The README's promise for later calls ("Two commands"): once the npm install is done,
 * `deno task tolk …` prints what the command prints, with only Deno's own `Task …` lines before it
 * on stderr, and `deno task -q` leaves those out. Run as a reader would, on a fresh home folder.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { APP_VERSION } from "../../version.ts";
import { runAsReader } from "../support/readme_commands.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

Deno.test("`deno task tolk …` prints what the command prints, Deno's Task lines aside as the README says", async () => {
  const readme = (await Deno.readTextFile(join(ROOT, "README.md"))).replace(/\s+/g, " ");
  const said = readme.match(
    /`deno task tolk …` stays fast and prints only what the command prints, after Deno's own `Task …` lines on stderr \(`(deno task -q)` leaves those out\)/,
  );
  assert.ok(said, "the README says what a later `deno task tolk …` prints");
  const home = await Deno.makeTempDir({ prefix: "tolk-task-output-" });
  try {
    const plain = await runAsReader("deno task tolk --version", home);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout, `tolk ${APP_VERSION}\n`);
    const lines = plain.stderr.split("\n").filter((line) => line !== "");
    assert.ok(lines.length > 0 && lines.every((line) => line.startsWith("Task ")), plain.stderr);

    const quiet = await runAsReader(`${said[1]} tolk --version`, home);
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(quiet.stdout, `tolk ${APP_VERSION}\n`);
    assert.equal(quiet.stderr, "");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
