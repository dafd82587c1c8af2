/**
 * `tolk version` (also `tolk --version`): prints `tolk <version>` alone on stdout, the text
 * `/v1/health` reports, so a bug report can say which build it ran.
 */
import { z } from "zod";
import { APP_VERSION } from "../version.ts";
import { type CommandUsage, parseCommand } from "./flags.ts";
import { printLine } from "./stdout_lines.ts";

/** `tolk version` in the help text. */
export const usage = {
  name: "version",
  summary: "print the version (also: tolk --version)",
  flags: z.object({}),
} satisfies CommandUsage;

/**
 * Runs `tolk version`.
 *
 * @throws {FlagError} on any flag or argument (it takes none).
 */
export function run(args: string[]): Promise<number> {
  parseCommand(args, usage);
  printLine(`tolk ${APP_VERSION}`);
  return Promise.resolve(0);
}
