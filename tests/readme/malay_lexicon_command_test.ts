/**
 * The README's command that rebuilds `detection/data/malay_lexicon.json` ("Development"), run as
 * written in a copy of the generator's folder, where it writes: it must reproduce the committed
 * file byte for byte, so a rebuild leaves the tree unchanged (and `deno fmt --check` green). Needs
 * the Tesseract packages the README names; without them the test is reported as ignored.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runAsReader } from "../support/readme_commands.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const GENERATOR = "detection/data/make_malay_lexicon.ts";

/** True when `name` is an executable file in a PATH directory (no process is started). */
function onPath(name: string): boolean {
  return (Deno.env.get("PATH") ?? "").split(":").some((dir) => {
    try {
      return Deno.statSync(join(dir, name)).isFile;
    } catch {
      return false;
    }
  });
}

Deno.test("the README's malay lexicon command rebuilds the committed file byte for byte", {
  ignore: !onPath("dawg2wordlist") || !onPath("combine_tessdata"),
}, async () => {
  const readme = (await Deno.readTextFile(join(ROOT, "README.md"))).replace(/\s+/g, " ");
  const command = readme.match(new RegExp(`\`(deno run [^\`]* ${GENERATOR})\``))?.[1];
  assert.ok(command, "the README shows how to rebuild the lexicon");
  const copy = await Deno.makeTempDir({ prefix: "tolk-lexicon-" });
  try {
    await Deno.mkdir(join(copy, "detection/data"), { recursive: true });
    await Deno.copyFile(join(ROOT, GENERATOR), join(copy, GENERATOR));
    const home = Deno.env.get("HOME") ?? "/root";
    const run = await runAsReader(command, home, {}, copy);
    assert.equal(run.code, 0, run.stderr);
    const rebuilt = await Deno.readTextFile(join(copy, "detection/data/malay_lexicon.json"));
    const committed = await Deno.readTextFile(join(ROOT, "detection/data/malay_lexicon.json"));
    assert.ok(rebuilt === committed, "the rebuilt lexicon differs from the committed one");
  } finally {
    await Deno.remove(copy, { recursive: true });
  }
});
