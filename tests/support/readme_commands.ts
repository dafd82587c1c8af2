/** The README's shell blocks, for tests that run its commands as written. */
import { dirname, join } from "node:path";

const ROOT = new URL("../..", import.meta.url).pathname;

/**
 * The text of the `nth` (counted from 0) ```sh block after the first line of the README that
 * starts with `anchor` (a heading or an HTML comment marking the block).
 *
 * @throws {Error} when the README has no such line or block.
 */
export function shellBlockAfter(anchor: string, nth = 0): Promise<string> {
  return codeBlockAfter(anchor, "sh", nth);
}

/**
 * The text of the `nth` (counted from 0) code block in `language` (```js, ```ts …) after the
 * first line of the README that starts with `anchor`.
 *
 * @throws {Error} when the README has no such line or block.
 */
export async function codeBlockAfter(anchor: string, language: string, nth = 0): Promise<string> {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const at = readme.indexOf(`\n${anchor}`);
  if (at < 0) throw new Error(`README has no line starting "${anchor}"`);
  const fence = `\n\`\`\`${language}\n`;
  let start = at;
  for (let i = 0; i <= nth; i++) {
    start = readme.indexOf(fence, start + 1);
    if (start < 0) throw new Error(`README has no ${language} block ${nth} after "${anchor}"`);
  }
  start += fence.length;
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

/**
 * bash options for running README commands as a zsh user pastes them: zsh (macOS's shell) stops
 * at a word that looks like a pattern and matches no file (`--allow-net=…,[::1]` unquoted) where
 * bash would pass it on, so an unquoted pattern must fail here too.
 */
export const READER_SHELL_OPTIONS = ["-O", "failglob"];

/** What a README command printed, and its exit code. */
export interface ReaderRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a README command with bash from the checkout (or `cwd`), in a fresh `home`, with `deno` as
 * the README's reader has it (the one running this suite) and only the environment a reader's
 * shell has, plus `env`.
 */
export async function runAsReader(
  command: string,
  home: string,
  env: Record<string, string> = {},
  cwd = ROOT,
): Promise<ReaderRun> {
  const output = await new Deno.Command("bash", {
    args: [...READER_SHELL_OPTIONS, "-c", command],
    cwd,
    env: {
      HOME: home,
      PATH: `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? ""}`,
      DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache/deno"),
      DENO_NO_UPDATE_CHECK: "1",
      NO_COLOR: "1",
      ...env,
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: text(output.stdout), stderr: text(output.stderr) };
}
