/**
 * `tolk token show|rotate|revoke [--config FILE]`: manages the API token.
 *
 * `show` and `rotate` print the token alone on stdout; `revoke` removes it, so every
 * authenticated request (open WebSockets included) is refused until `rotate` or `api enable`.
 */
import { generateToken } from "../settings/settings_store.ts";
import { runSettingsCommand, settingsCommandUsage } from "./settings_file_command.ts";
import { printLine } from "./stdout_lines.ts";
import { tolkCommand } from "../tolk_command.ts";
import { pathFlagsForHint } from "./config_paths.ts";

/** `tolk token` in the help text. */
export const usage = settingsCommandUsage(
  "token",
  ["show", "rotate", "revoke"] as const,
  "print, replace or remove the API token (show/rotate print it alone on stdout)",
);

/** Runs `tolk token`. */
export function run(args: string[]): Promise<number> {
  return runSettingsCommand(args, usage, (store, action) => {
    const flags = pathFlagsForHint({ config: store.path });
    if (action === "show") {
      const { token } = store.read().api;
      if (token === null) {
        // The file is named: with a mistyped --config, `api enable` would start a second one.
        console.error(
          `no token in ${store.path}: run \`${tolkCommand("api enable", flags)}\` or \`${
            tolkCommand("token rotate", flags)
          }\``,
        );
        return 1;
      }
      printLine(token);
      return 0;
    }
    const settings = store.update((settings) => {
      settings.api.token = action === "rotate" ? generateToken() : null;
    });
    if (action === "rotate") printLine(settings.api.token!);
    else console.error(`token revoked; \`${tolkCommand("token rotate", flags)}\` makes a new one`);
    return 0;
  });
}
