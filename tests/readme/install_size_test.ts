/**
 * The README's size of the npm install ("Two commands": `npm install --omit=optional
 * --ignore-scripts`, about N MB), checked against the `node_modules` that install made: a reader
 * plans disk space with it. Counted as `du --apparent-size` does (file sizes, symlinks not
 * followed), within a quarter either way.
 */
import assert from "node:assert/strict";
import { join } from "node:path";

const ROOT = new URL("../..", import.meta.url).pathname;

async function bytesUnder(dir: string): Promise<number> {
  let total = 0;
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) total += await bytesUnder(path);
    else if (entry.isFile) total += (await Deno.lstat(path)).size;
  }
  return total;
}

Deno.test("the README's size of the npm install is the size of node_modules", async () => {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const said = readme.match(
    /`npm install --omit=optional --ignore-scripts`,\s+about (\d+) MB on disk/,
  );
  assert.ok(said, "the README says how large the install is");
  const megabytes = (await bytesUnder(join(ROOT, "node_modules"))) / 1e6;
  const readmeSize = Number(said[1]);
  assert.ok(
    megabytes > readmeSize * 0.75 && megabytes < readmeSize * 1.25,
    `node_modules holds ${Math.round(megabytes)} MB; the README says about ${readmeSize} MB`,
  );
});
