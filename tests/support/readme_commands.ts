/** The README's shell blocks, for tests that run its commands as written. */
import { join } from "node:path";

const ROOT = new URL("../..", import.meta.url).pathname;

/**
 * The text of the `nth` (counted from 0) ```sh block after the first line of the README that
 * starts with `anchor` (a heading or an HTML comment marking the block).
 *
 * @throws {Error} when the README has no such line or block.
 */
export async function shellBlockAfter(anchor: string, nth = 0): Promise<string> {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const at = readme.indexOf(`\n${anchor}`);
  if (at < 0) throw new Error(`README has no line starting "${anchor}"`);
  let start = at;
  for (let i = 0; i <= nth; i++) {
    start = readme.indexOf("\n```sh\n", start + 1);
    if (start < 0) throw new Error(`README has no sh block ${nth} after "${anchor}"`);
  }
  start += "\n```sh\n".length;
  return readme.slice(start, readme.indexOf("\n```", start));
}

/**
 * The `nth` ```sh block under the heading `heading`, as one command per entry (continuations
 * joined, blank lines dropped).
 */
export async function shellCommandsUnder(heading: string, nth = 0): Promise<string[]> {
  const block = await shellBlockAfter(`${heading}\n`, nth);
  return block.replaceAll("\\\n", " ").split("\n").filter((line) => line.trim() !== "");
}
