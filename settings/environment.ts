/**
 * Every environment variable tolk reads, parsed once into a typed object.
 *
 * Nothing else calls `Deno.env.get`: commands take their fallbacks from here (a flag on the
 * command line wins), and a bad value is one error naming the variable.
 */
import { z } from "zod";

/** An unset or empty variable is absent. */
const text = z.string().min(1).optional();

/** The variables, with what each one means. */
export const EnvironmentSchema = z.object({
  TOLK_CONFIG: text.describe("The settings file, like --config."),
  TOLK_DATA_DIR: text.describe("The data folder (history), like --data-dir."),
  TOLK_MODELS_DIR: text.describe("The models folder, like --models-dir."),
  TOLK_BUILD: text.describe("Build stamp in version texts; compile.sh embeds it (default: dev)."),
  SVC_API_KEY: text.describe("tolk infer: the bearer key every /v1 request must carry."),
  HF_ENDPOINT: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional()
    .describe("The model hub `tolk models pull` downloads from (default https://huggingface.co)."),
  HOME: text.describe("The user's home folder, under which the default folders live."),
  XDG_CONFIG_HOME: text.describe(
    "Base of the default settings folder (default ~/.config; a relative path is ignored).",
  ),
  XDG_DATA_HOME: text.describe(
    "Base of the default data folder (default ~/.local/share; a relative path is ignored).",
  ),
  INIT_CWD: text.describe(
    "Where `deno task` (or npm) was started: relative path flags of `deno task tolk` are read " +
      "from there, since the task itself runs in the checkout.",
  ),
});

/** The parsed environment. */
export type Environment = z.infer<typeof EnvironmentSchema>;

/** A variable with a value tolk cannot use; the command line prints it as one line, exit 2. */
export class EnvironmentError extends Error {
  override name = "EnvironmentError";
  constructor(readonly variable: string, reason: string) {
    super(`${variable}: ${reason}`);
  }
}

let parsed: Environment | undefined;

/**
 * The environment, read and checked on first use.
 *
 * @throws {EnvironmentError} when a variable's value is unusable.
 * @example
 * ```ts
 * const endpoint = environment().HF_ENDPOINT ?? "https://huggingface.co";
 * ```
 */
export function environment(): Environment {
  parsed ??= parseEnvironment(readVariable);
  return parsed;
}

/**
 * Parses the variables `read` returns (empty means unset).
 *
 * @throws {EnvironmentError} when a variable's value is unusable.
 */
export function parseEnvironment(read: (name: string) => string | undefined): Environment {
  const raw = Object.fromEntries(
    Object.keys(EnvironmentSchema.shape).map((name) => [name, read(name) || undefined]),
  );
  const result = EnvironmentSchema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new EnvironmentError(String(issue.path[0]), issue.message);
}

function readVariable(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined; // no --allow-env: every variable is unset
  }
}
