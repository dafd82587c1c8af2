/**
 * Command-line flag parsing shared by every `tolk` subcommand.
 *
 * Flags are parsed once into a typed object by a zod schema whose keys are the flag names
 * themselves (kebab-case, without the dashes), so an error can always name the flag.
 */
import { z } from "zod";
import { boundMessage } from "../errors/contract_error.ts";
import { bindHostname, isLoopbackBind } from "../net/loopback.ts";
import { didYouMean } from "./closest_name.ts";
import { DEFAULT_HOST } from "../net/serve_address.ts";
import { type Environment, EnvironmentSchema } from "../settings/environment.ts";

/** A bad flag or value; `main.ts` prints `message` as one stderr line and exits 2. */
export class FlagError extends Error {
  override name = "FlagError";
  /**
   * @param flag The flag at fault (`--port`), or "" for the command's own arguments: the line
   *   already starts with `tolk <command>:`, so naming the command again would say it twice.
   */
  constructor(readonly flag: string, reason: string) {
    super(flag ? `${flag}: ${reason}` : reason);
  }
}

/** Options of {@link parseFlags}. */
export interface ParseFlagsOptions {
  /** Flags that take no value (`--expose-model-path`). */
  booleans?: readonly string[];
  /**
   * Fallbacks from the environment (settings/environment.ts): flag name → value. A flag on the
   * command line wins.
   */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Parsed flags plus the positional arguments in order. */
export interface ParsedFlags<T> {
  flags: T;
  positionals: string[];
}

/**
 * Parses `--name value`, `--name=value` and boolean `--name` into the schema's type; after `--`,
 * every word is a positional.
 *
 * @throws {FlagError} on an unknown flag, a missing value or a value the schema refuses.
 * @example
 * ```ts
 * const schema = z.object({ port: z.coerce.number().int().default(8765) });
 * const { flags } = parseFlags(["--port", "9000"], schema);
 * ```
 */
export function parseFlags<S extends z.ZodObject>(
  args: readonly string[],
  schema: S,
  options: ParseFlagsOptions = {},
): ParsedFlags<z.infer<S>> {
  const known = new Set(Object.keys(schema.shape));
  const booleans = new Set(options.booleans ?? []);
  const raw: Record<string, unknown> = {};
  const positionals: string[] = [];

  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      // The POSIX end of the flags: what follows is an argument, whatever it starts with.
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--")) {
      // `-p 9000` from another server's habit: tolk has no short flags, and no positional of any
      // command starts with a dash.
      if (/^-./.test(arg)) throw new FlagError(arg, "unknown flag");
      positionals.push(arg);
      continue;
    }
    const [name, inlineValue] = splitFlag(arg.slice(2));
    if (!known.has(name)) {
      throw new FlagError(`--${name}`, `unknown flag${didYouMean(name, known, "--")}`);
    }
    if (booleans.has(name)) {
      if (inlineValue !== undefined) throw new FlagError(`--${name}`, "takes no value");
      raw[name] = true;
      continue;
    }
    const value = inlineValue ?? args[++i];
    if (value === undefined || (inlineValue === undefined && value.startsWith("--"))) {
      throw new FlagError(`--${name}`, "needs a value");
    }
    raw[name] = value;
  }

  for (const [flag, value] of Object.entries(options.env ?? {})) {
    if (raw[flag] === undefined && value !== undefined) raw[flag] = value;
  }

  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const flag = String(issue.path[0] ?? "arguments");
    throw new FlagError(`--${flag}`, boundMessage(issue) ?? choiceMessage(issue) ?? issue.message);
  }
  return { flags: parsed.data, positionals };
}

/** What {@link parseCommand} reads of a command's {@link CommandUsage}. */
export interface CommandShape<S extends z.ZodObject, A extends string> {
  name: string;
  flags: S;
  /** The one positional word the command takes; none: the command takes no positional. */
  actions?: readonly A[];
}

/**
 * Parses the arguments of `tolk <name> [action] [flags]`: the flags by the command's schema and,
 * when it has actions, exactly one of them.
 *
 * @throws {FlagError} on a bad flag, a missing or unknown action, or an extra argument.
 * @example
 * ```ts
 * const { flags, action } = parseCommand(["rotate"], usage, { env: pathFlagsFromEnvironment() });
 * ```
 */
export function parseCommand<S extends z.ZodObject, A extends string>(
  args: readonly string[],
  command: CommandShape<S, A>,
  options: ParseFlagsOptions = {},
): { flags: z.infer<S>; action: A } {
  const { flags, positionals } = parseFlags(args, command.flags, options);
  const { actions } = command;
  const [action] = positionals;
  if (actions && !actions.includes(action as A)) {
    const last = actions[actions.length - 1];
    throw new FlagError(
      "",
      `expected ${actions.slice(0, -1).join(", ")} or ${last}${didYouMean(action, actions)}`,
    );
  }
  const extra = actions ? positionals.slice(1) : positionals;
  if (extra.length) throw new FlagError("", `unexpected argument "${extra[0]}"`);
  return { flags, action: action as A };
}

/** A decimal integer flag value within [min, max]. */
export function integerFlag(min: number, max = Number.MAX_SAFE_INTEGER) {
  return z.string()
    .regex(/^\d+$/, `expected a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
}

/** A TCP port flag value (0 lets the system choose). */
export function portFlag() {
  return integerFlag(0, 65535);
}

/**
 * A `--host` flag value: an address alone. One written with its port (`127.0.0.1:9000`) or as a
 * URL (`http://[::1]:8766/`, as a service prints where it listens) is refused with the flags
 * that say it; any other reason ("not loopback") would be the wrong one.
 *
 * @example
 * ```ts
 * const schema = z.object({ host: hostFlag().default("127.0.0.1") });
 * ```
 */
export function hostFlag() {
  return z.string().min(1, "must not be empty").superRefine((value, context) => {
    const isUrl = /^[a-z][a-z\d+.-]*:\/\//i.test(value);
    if (!isUrl && !/^(\[[^\]]*\]|[^:]*):\d+$/.test(value)) return;
    let url: URL;
    try {
      url = new URL(isUrl ? value : `http://${value}`);
    } catch {
      return; // not an address at all: the command's own check says why
    }
    const parts = `--host ${bindHostname(url.hostname)}${url.port ? ` --port ${url.port}` : ""}`;
    context.addIssue({
      code: "custom",
      message: isUrl
        ? `"${value}" is a URL; give its parts: ${parts}`
        : `"${value}" holds a port; give it apart: ${parts}`,
      abort: true,
    });
  });
}

/**
 * A `--host` flag value that must name loopback (net/loopback.ts: the one rule of serve's bind,
 * its Host check and engine URLs), default 127.0.0.1; `refusal` is the error for another.
 *
 * @example
 * ```ts
 * const schema = z.object({ host: loopbackHostFlag(`binds to loopback only (${LOOPBACK_RULE})`) });
 * ```
 */
export function loopbackHostFlag(refusal: string) {
  return hostFlag().refine(isLoopbackBind, refusal).default(DEFAULT_HOST);
}

/** An enum flag's refusal in the help's words ("must be one of a, b"), not zod's quoted list. */
function choiceMessage(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code !== "invalid_value") return undefined;
  return `must be one of ${issue.values.map(String).join(", ")}`;
}

function splitFlag(body: string): [string, string | undefined] {
  const eq = body.indexOf("=");
  return eq === -1 ? [body, undefined] : [body.slice(0, eq), body.slice(eq + 1)];
}

/** What `tolk --help` shows for one command: its words and its flag schema. */
export interface CommandUsage {
  /** `serve`, `token`, … */
  name: string;
  /** The one positional word the command takes (`show`, `rotate`, `revoke`), if any. */
  actions?: readonly string[];
  /** Positional words beyond a plain action list, e.g. `list|pull [ORG/NAME]`. */
  positionals?: string;
  /** One line saying what the command does. */
  summary: string;
  /** The flag schema; every field's `.describe()` is its help text. */
  flags: z.ZodObject;
  /** Environment variables the command reads (described in settings/environment.ts). */
  environment?: readonly (keyof Environment)[];
}

/**
 * The help text of `commands`, generated from their flag schemas so it cannot drift from what
 * the parser accepts: each flag with its value placeholder, description and default.
 */
export function formatUsage(commands: readonly CommandUsage[]): string {
  const lines = ["usage: tolk <command> [flags]", ""];
  for (const command of commands) {
    const positionals = command.positionals ?? command.actions?.join("|");
    lines.push(`tolk ${[command.name, positionals].filter(Boolean).join(" ")}`);
    lines.push(`  ${command.summary}`);
    for (const [name, schema] of Object.entries(command.flags.shape)) {
      const field = schema as z.ZodType & { description?: string };
      const isBoolean = field.def.type === "default"
        ? typeof (field.def as unknown as { defaultValue: unknown }).defaultValue === "boolean"
        : field.def.type === "boolean";
      const shown = isBoolean ? `--${name}` : `--${name} ${placeholder(name)}`;
      const fallback = field.def.type === "default" && !isBoolean
        ? ` (default ${(field.def as unknown as { defaultValue: unknown }).defaultValue})`
        : "";
      lines.push(`  ${shown.padEnd(30)} ${field.description ?? ""}${fallback}`);
    }
    for (const variable of command.environment ?? []) {
      const description = EnvironmentSchema.shape[variable].description ?? "";
      lines.push(`  ${`$${variable}`.padEnd(30)} ${description}`);
    }
    lines.push("");
  }
  return lines.join("\n").trimEnd();
}

const PLACEHOLDERS: Readonly<Record<string, string>> = {
  // `tolk history list --q`: text to search for, not a number.
  q: "TEXT",
  config: "FILE",
  model: "PATH",
  "cors-origin": "ORIGIN",
  "max-request-bytes": "BYTES",
};

function placeholder(name: string): string {
  if (name.endsWith("-dir")) return "DIR";
  return PLACEHOLDERS[name] ?? (/^(host|port|dtype)$/.test(name) ? name.toUpperCase() : "N");
}
