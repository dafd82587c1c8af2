/**
 * The `tolk` command line: parses the subcommand and hands over to its module.
 *
 * Subcommand modules are imported lazily so `tolk serve` never loads the llama runtime and
 * `tolk infer` never loads onnxruntime.
 */
import { didYouMean } from "./cli/closest_name.ts";
import { type CommandUsage, FlagError, formatUsage } from "./cli/flags.ts";
import { EnvironmentError } from "./settings/environment.ts";
import { dropUnneededPermissions, permissionRow } from "./cli/permissions.ts";
import { OutputError, printLine } from "./cli/stdout_lines.ts";
import { tolkCommand } from "./tolk_command.ts";

/** A subcommand module: runs with the arguments after its name, resolves to an exit code. */
export interface Subcommand {
  run(args: string[]): Promise<number>;
  /** Its words and flag schema, for the help text. */
  usage: CommandUsage;
}

const SUBCOMMANDS: Record<string, () => Promise<Subcommand>> = {
  serve: () => import("./cli/serve_command.ts"),
  api: () => import("./cli/api_command.ts"),
  token: () => import("./cli/token_command.ts"),
  infer: () => import("./cli/infer_command.ts"),
  models: () => import("./cli/models_command.ts"),
  history: () => import("./cli/history_command.ts"),
  settings: () => import("./cli/settings_command.ts"),
  version: () => import("./cli/version_command.ts"),
};

/** The help text, generated from every command's flag schema (loads each command module). */
async function usage(): Promise<string> {
  const modules = await Promise.all(Object.values(SUBCOMMANDS).map((load) => load()));
  return formatUsage(modules.map((module) => module.usage));
}

/**
 * The exit code of a command that failed with `error`, after one stderr line starting with
 * `prefix` (`tolk serve`); any other error is rethrown (a bug: its stack trace is wanted).
 */
function reportFailure(prefix: string, error: unknown): number {
  if (error instanceof FlagError || error instanceof EnvironmentError) {
    console.error(`${prefix}: ${error.message}`);
    return 2;
  }
  if (error instanceof OutputError) {
    console.error(`${prefix}: cannot write to stdout: ${error.message}`);
    return 1;
  }
  throw error;
}

/** Runs `tolk` with `args` and resolves to the process exit code. */
export async function runTolk(args: string[]): Promise<number> {
  // `npx deno task tolk -- serve`, from npm's habit: `deno task` passes the `--` on.
  if (args[0] === "--") return runTolk(args.slice(1));
  // `tolk help serve` is `tolk serve --help`, as git and cargo read it.
  if (args[0] === "help" && args.length > 1) return runTolk([args[1], "--help"]);
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const text = await usage();
    if (name === undefined) {
      console.error(text);
      return 2;
    }
    try {
      printLine(text);
      return 0;
    } catch (error) {
      return reportFailure("tolk", error);
    }
  }
  // `--version` as most command lines spell it; `version` is the command that answers it.
  if (name === "--version") return runTolk(["version", ...rest]);
  if (name.startsWith("-")) {
    console.error(`tolk: unknown flag "${name}" (try: ${tolkCommand("--help")})`);
    return 2;
  }
  const load = SUBCOMMANDS[name];
  if (!load) {
    const names = Object.keys(SUBCOMMANDS);
    // A slip (`tolk serv`) is answered with the command meant, as a flag's is; else the list.
    const hint = didYouMean(name, names) || ` (try: ${names.join(", ")})`;
    console.error(`tolk: unknown command "${name}"${hint}`);
    return 2;
  }
  try {
    // `tolk infer --help`: that command's part of the help, wherever the flag stands before
    // a `--` (after it, every word is an argument).
    const flagWords = rest.includes("--") ? rest.slice(0, rest.indexOf("--")) : rest;
    if (flagWords.includes("--help") || flagWords.includes("-h")) {
      printLine(
        formatUsage([(await load()).usage]).replace(/^usage: tolk <command> \[flags\]\n\n/, ""),
      );
      return 0;
    }
    dropUnneededPermissions(permissionRow(name, rest)!);
    return await (await load()).run(rest);
  } catch (error) {
    return reportFailure(`tolk ${name}`, error);
  }
}

if (import.meta.main) {
  // Deno.exit rather than Deno.exitCode: a module node-llama-cpp pulls in (signal-exit) resets
  // the exit code to 0 once loaded.
  Deno.exit(await runTolk(Deno.args));
}
