/** The languages the README's introduction lists are the service's, in its order. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { LANGUAGE_CODES } from "../../schemas/languages.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

Deno.test("the README's introduction lists the service's languages", async () => {
  const readme = (await Deno.readTextFile(join(ROOT, "README.md"))).replace(/\s+/g, " ");
  const [, count, list] = readme.match(/between (\d+) languages \(([^)]+)\)/) ?? [];
  assert.ok(list, "the README lists the languages");
  assert.deepEqual(list.split(", "), [...LANGUAGE_CODES]);
  assert.equal(Number(count), LANGUAGE_CODES.length);
});
