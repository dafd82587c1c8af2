/** The README's shell blocks, for tests that run its commands as written. */
import { join } from "node:path";

const ROOT = new URL("../..", import.meta.url).pathname;

/** The first ```sh block after `heading`, as one command per entry (continuations joined). */
export async function shellCommandsUnder(heading: string): Promise<string[]> {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const at = readme.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`README has no heading "${heading}"`);
  const section = readme.slice(at);
  const start = section.indexOf("```sh\n") + "```sh\n".length;
  const block = section.slice(start, section.indexOf("\n```", start));
  return block.replaceAll("\\\n", " ").split("\n").filter((line) => line.trim() !== "");
}
