/**
 * The files and folders the README names exist in the checkout: the paths it writes in
 * backticks, its links and picture, and every folder and file of its Development outline.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";

const ROOT = new URL("../..", import.meta.url).pathname;
/** Named in the README but not in a checkout: the build's output. */
const BUILT = new Set(["dist/tolk"]);
const MEDIA_TYPE = /^(text|application)\//;

/** The paths of the checkout under `dir`, relative to ROOT (node_modules left out). */
function* checkoutFiles(dir = ""): Generator<string> {
  for (const entry of Deno.readDirSync(join(ROOT, dir))) {
    const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory && !["node_modules", ".git"].includes(entry.name)) {
      yield* checkoutFiles(path);
    } else if (entry.isFile) yield path;
  }
}

/** The README's Development outline: the fenced block after "Imports flow one way". */
function developmentOutline(readme: string): string {
  const start = readme.indexOf("```\n", readme.indexOf("Imports flow one way")) + 4;
  return readme.slice(start, readme.indexOf("```", start));
}

Deno.test("every path the README names in backticks, links or its Development outline exists", async () => {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const named = [
    ...[...readme.matchAll(/`(\.?[a-z_]+(?:\/[\w.-]+)*(?:\/|\.(?:ts|json|py|sh|md|png|html)))`/g)]
      .map(([, path]) => path),
    ...[...readme.matchAll(/\]\(([\w./-]+\.\w+)\)|src="([^"]+)"/g)].map(([, link, src]) =>
      link ?? src
    ),
  ].filter((path) => !BUILT.has(path) && !MEDIA_TYPE.test(path));
  assert.ok(named.length >= 10, JSON.stringify(named));
  assert.deepEqual(named.filter((path) => !existsSync(join(ROOT, path))), []);

  // The outline: folders at the start of a line, and each file named in a description.
  const outline = developmentOutline(readme);
  const folders = outline.split("\n").filter((line) => /^[a-z]/.test(line)).flatMap((line) => {
    const words = line.split(/\s+/);
    return words.slice(0, words.findIndex((word) => !word.endsWith("/")));
  });
  assert.ok(folders.includes("routes/serve/"), JSON.stringify(folders));
  assert.deepEqual(folders.filter((path) => !existsSync(join(ROOT, path))), []);
  const files = new Set([...checkoutFiles()].map((path) => path.split("/").at(-1)));
  const mentioned = [...outline.matchAll(/\b([a-z_]+\.(?:ts|html|json))\b/g)].map(([, file]) =>
    file
  );
  assert.ok(mentioned.includes("openai_adapter.ts"), JSON.stringify(mentioned));
  assert.deepEqual(mentioned.filter((file) => !files.has(file)), []);
});
