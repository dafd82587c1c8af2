/**
 * `tolk api enable|disable [--config FILE]`: turns the local API on or off.
 *
 * `enable` makes a token when there is none and prints it alone on stdout.
 */
import { z } from "zod";
import { generateToken, SettingsStore } from "../settings/settings_store.ts";
import { configFlag, pathFlagsFromEnvironment } from "./config_paths.ts";
import { type CommandUsage, parseCommand } from "./flags.ts";
import { reportSettingsError } from "./settings_errors.ts";

const FlagsSchema = z.object({ config: configFlag });

/** `tolk api` in the help text. */
export const usage = {
  name: "api",
  actions: ["enable", "disable"] as const,
  summary: "turn the local API on (prints the token alone on stdout) or off",
  flags: FlagsSchema,
  environment: ["TOLK_CONFIG"],
} satisfies CommandUsage;

/** Runs `tolk api`. */
export function run(args: string[]): Promise<number> {
  const { flags, action } = parseCommand(args, usage, { env: pathFlagsFromEnvironment() });
  const store = new SettingsStore(flags.config);
  return Promise.resolve(reportSettingsError(() => {
    const settings = store.update((settings) => {
      settings.api.enabled = action === "enable";
      if (action === "enable") settings.api.token ??= generateToken();
    });
    if (action === "enable") console.log(settings.api.token);
    else console.error("local API disabled");
  }));
}
