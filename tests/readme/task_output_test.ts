/**
 * The README's promise for later calls ("Two commands"): once the npm install is done,
 * `deno task tolk …` prints what the command prints, with only Deno's own `Task …` lines before it
 * on stderr, and `deno task -q` leaves those out. Run as a reader would, on a fresh home folder.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { APP_VERSION } from "../../version.ts";
import { runAsReader, shellCommandsUnder } from "../support/readme_commands.ts";

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

Deno.test("each `deno task …` runs as `npx -y deno@2.9.6 task …` until Deno is installed, as the README says", async () => {
  const readme = (await Deno.readTextFile(join(ROOT, "README.md"))).replace(/\s+/g, " ");
  const [, written, npx] = readme.match(
    /until then, each `(deno task) …` below runs as `(npx -y deno@2\.9\.6 task) …`/,
  ) ?? [];
  assert.ok(npx, "the README says how to run a `deno task` command without Deno");
  // The README's version command ("Commands"), in that form, by a reader with only npm.
  const [version] = await shellCommandsUnder("## Commands");
  assert.ok(version.startsWith(`${written} tolk --version `), version);
  const home = await Deno.makeTempDir({ prefix: "tolk-task-npx-" });
  try {
    const run = await runAsReader(version.replace(written, npx), home, {
      // Without this suite's `deno` on PATH: npx brings its own.
      PATH: (Deno.env.get("PATH") ?? "").split(":")
        .filter((dir) => dir !== dirname(Deno.execPath())).join(":"),
      // npx's cache stays where it is (no download of deno again for a new home).
      npm_config_cache: Deno.env.get("npm_config_cache") ??
        join(Deno.env.get("HOME") ?? "/root", ".npm"),
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `tolk ${APP_VERSION}\n`);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
