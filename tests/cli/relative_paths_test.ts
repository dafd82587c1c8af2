/**
 * Relative path flags through `deno task`, which runs its command in the checkout (where
 * deno.json is): the README's `deno task --config <checkout>/deno.json tolk …` with
 * `--config ./settings.json` run from another folder must read and write that folder's file, not
 * one in the checkout.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runAsReader } from "../support/readme_commands.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const README_TASK = "deno task --config <checkout>/deno.json tolk";
/** The README's command, its `<checkout>` this one. */
const TASK = README_TASK.replace("<checkout>", ROOT.replace(/\/$/, ""));

Deno.test("the README shows `deno task --config <checkout>/deno.json tolk` for other folders", async () => {
  const readme = (await Deno.readTextFile(join(ROOT, "README.md"))).replace(/\s+/g, " ");
  assert.ok(readme.includes(`(from any folder with \`${README_TASK} …\`: relative paths`));
});

async function inTempFolders(body: (home: string, folder: string) => Promise<void>) {
  const home = await Deno.makeTempDir({ prefix: "tolk-relative-home-" });
  const folder = await Deno.makeTempDir({ prefix: "tolk-relative-cwd-" });
  try {
    await body(home, folder);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(folder, { recursive: true });
  }
}

Deno.test("`deno task tolk api enable --config ./settings.json` from another folder writes that folder's file", async () => {
  await inTempFolders(async (home, folder) => {
    const name = `settings-${crypto.randomUUID()}.json`;
    const run = await runAsReader(`${TASK} api enable --config ./${name}`, home, {}, folder);
    const inCheckout = existsSync(join(ROOT, name));
    if (inCheckout) await Deno.remove(join(ROOT, name));
    assert.equal(run.code, 0, run.stderr);
    assert.ok(existsSync(join(folder, name)), "the file is where the user stood");
    assert.ok(!inCheckout, "nothing written into the checkout");
  });
});

Deno.test("`deno task tolk history list --data-dir ./data` from another folder names that folder", async () => {
  await inTempFolders(async (home, folder) => {
    const run = await runAsReader(`${TASK} history list --data-dir ./data`, home, {}, folder);
    assert.equal(run.code, 1, run.stderr);
    // Without --quiet, `deno task` names each task it runs on stderr first.
    const said = run.stderr.split("\n").filter((line) => line && !line.startsWith("Task "));
    const readme = (await Deno.readTextFile(join(ROOT, "README.md"))).replace(/\s+/g, " ");
    const line = readme.match(/each prints `(tolk history: no history at DIR[^`]*)`/)?.[1];
    assert.ok(line, "the README quotes the line");
    assert.deepEqual(said, [line.replace("DIR", join(folder, "data"))]);
  });
});

// `--config=~/x` is not expanded by the shell (a `~` after `=` is only expanded in an assignment),
// so tolk reads the `~`: it once made a folder named `~` where the user stood, one that a later
// `rm -r ~` meant for it would take the home with.
for (const args of ["--config=~/tolk.json", "--config '~/tolk.json'"]) {
  Deno.test(`\`deno task tolk api enable ${args}\` writes the file in the home`, async () => {
    await inTempFolders(async (home, folder) => {
      const run = await runAsReader(`${TASK} api enable ${args}`, home, {}, folder);
      const strayTilde = existsSync(join(folder, "~"));
      assert.equal(run.code, 0, run.stderr);
      assert.ok(existsSync(join(home, "tolk.json")), run.stderr);
      assert.ok(!strayTilde, "no folder named ~ where the user stood");
    });
  });
}
