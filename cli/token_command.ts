/**
 * `tolk token show|rotate|revoke [--config FILE]`: manages the API token.
 *
 * `show` and `rotate` print the token alone on stdout; `revoke` removes it, so every
 * authenticated request (open WebSockets included) is refused until `rotate` or `api enable`.
 */
import { z } from "zod";
import { generateToken, SettingsStore } from "../settings/settings_store.ts";
import { configFlag, pathFlagsFromEnvironment } from "./config_paths.ts";
import { type CommandUsage, parseCommand } from "./flags.ts";
import { reportSettingsError } from "./settings_errors.ts";

const FlagsSchema = z.object({ config: configFlag });

/** `tolk token` in the help text. */
export const usage = {
  name: "token",
  actions: ["show", "rotate", "revoke"] as const,
  summary: "print, replace or remove the API token (show/rotate print it alone on stdout)",
  flags: FlagsSchema,
  environment: ["TOLK_CONFIG"],
} satisfies CommandUsage;

/** Runs `tolk token`. */
export function run(args: string[]): Promise<number> {
  const { flags, action } = parseCommand(args, usage, { env: pathFlagsFromEnvironment() });
  const store = new SettingsStore(flags.config);
  return Promise.resolve(reportSettingsError(() => {
    if (action === "show") {
      const { token } = store.read().api;
      if (token === null) {
        console.error("no token: run `tolk api enable` or `tolk token rotate`");
        return 1;
      }
      console.log(token);
      return 0;
    }
    const settings = store.update((settings) => {
      settings.api.token = action === "rotate" ? generateToken() : null;
    });
    if (action === "rotate") console.log(settings.api.token);
    else console.error("token revoked; `tolk token rotate` makes a new one");
    return 0;
  }));
}
