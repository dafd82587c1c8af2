/**
 * `tolk api enable|disable [--config FILE]`: turns the local API on or off.
 *
 * `enable` makes a token when there is none and prints it alone on stdout.
 */
import { generateToken } from "../settings/settings_store.ts";
import { runSettingsCommand, settingsCommandUsage } from "./settings_file_command.ts";
import { printLine } from "./stdout_lines.ts";

/** `tolk api` in the help text. */
export const usage = settingsCommandUsage(
  "api",
  ["enable", "disable"] as const,
  "turn the local API on (prints the token alone on stdout) or off",
);

/** Runs `tolk api`. */
export function run(args: string[]): Promise<number> {
  return runSettingsCommand(args, usage, (store, action) => {
    const settings = store.update((settings) => {
      settings.api.enabled = action === "enable";
      if (action === "enable") settings.api.token ??= generateToken();
    });
    if (action === "enable") printLine(settings.api.token!);
    else console.error("local API disabled");
  });
}
