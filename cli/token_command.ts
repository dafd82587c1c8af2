/**
 * `tolk token show|rotate|revoke [--config FILE]`: manages the API token.
 *
 * `show` and `rotate` print the token alone on stdout; `revoke` removes it, so every
 * authenticated request (open WebSockets included) is refused until `rotate` or `api enable`.
 */
import { z } from "zod";
import { generateToken, SettingsStore } from "../settings/settings_store.ts";
import { configFlag, defaultConfigPath, pathFlagsFromEnvironment } from "./config_paths.ts";
import { type CommandUsage, FlagError, parseFlags } from "./flags.ts";
import { reportSettingsError } from "./settings_errors.ts";

const FlagsSchema = z.object({ config: configFlag });
const ACTIONS = ["show", "rotate", "revoke"];

/** `tolk token` in the help text. */
export const usage: CommandUsage = {
  name: "token",
  positionals: "show|rotate|revoke",
  summary: "print, replace or remove the API token (show/rotate print it alone on stdout)",
  flags: FlagsSchema,
  environment: ["TOLK_CONFIG"],
};

/** Runs `tolk token`. */
export function run(args: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(args, FlagsSchema, {
    env: pathFlagsFromEnvironment(),
  });
  const [action, ...extra] = positionals;
  if (!ACTIONS.includes(action)) throw new FlagError("token", "expected show, rotate or revoke");
  if (extra.length) throw new FlagError("token", `unexpected argument "${extra[0]}"`);
  const store = new SettingsStore(flags.config ?? defaultConfigPath());
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
