/** The README's shell blocks, for tests that run its commands as written. */
import { join } from "node:path";

const ROOT = new URL("../..", import.meta.url).pathname;

/**
 * The first ```sh block after `heading` (or the `nth`, counted from 0), as one command per entry
 * (continuations joined).
 */
export async function shellCommandsUnder(heading: string, nth = 0): Promise<string[]> {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const at = readme.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`README has no heading "${heading}"`);
  const section = readme.slice(at);
  let start = -1;
  for (let i = 0; i <= nth; i++) start = section.indexOf("```sh\n", start + 1);
  start += "```sh\n".length;
  const block = section.slice(start, section.indexOf("\n```", start));
  return block.replaceAll("\\\n", " ").split("\n").filter((line) => line.trim() !== "");
}
