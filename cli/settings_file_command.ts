/**
 * What the commands that only touch the settings file (`tolk api`, `tolk token`) share: the
 * `--config` flag with `TOLK_CONFIG`, one store, and a bad settings file reported as one stderr
 * line and exit code 2.
 */
import { z } from "zod";
import { SettingsStore } from "../settings/settings_store.ts";
import { exposedTokenWarning } from "../settings/exposed_token.ts";
import { configFlag, pathFlagsFromEnvironment } from "./config_paths.ts";
import { type CommandShape, type CommandUsage, parseCommand } from "./flags.ts";
import { reportSettingsError } from "./settings_errors.ts";

const SettingsFlagsSchema = z.object({ config: configFlag });

/** The help entry of a settings command: its actions and its one line. */
export function settingsCommandUsage<A extends string>(
  name: string,
  actions: readonly A[],
  summary: string,
): CommandUsage & CommandShape<typeof SettingsFlagsSchema, A> {
  return { name, actions, summary, flags: SettingsFlagsSchema, environment: ["TOLK_CONFIG"] };
}

/** Parses `args` by `usage` and runs `act` on the settings file the flags and environment name. */
export function runSettingsCommand<A extends string>(
  args: string[],
  usage: CommandShape<typeof SettingsFlagsSchema, A>,
  act: (store: SettingsStore, action: A) => number | void,
): Promise<number> {
  const { flags, action } = parseCommand(args, usage, { env: pathFlagsFromEnvironment() });
  const store = new SettingsStore(flags.config);
  const existed = store.exists();
  const status = reportSettingsError(() => act(store, action));
  // Said because the new file is not what the user may think it changed: a mistyped --config,
  // or a file removed under a running service (whose token the new one replaces).
  if (!existed && store.exists()) {
    console.error(`settings file ${store.path} did not exist; created it`);
  }
  if (status === 0 && store.exists()) {
    const exposed = exposedTokenWarning(store.path, store.read());
    if (exposed) console.error(exposed);
  }
  return Promise.resolve(status);
}
