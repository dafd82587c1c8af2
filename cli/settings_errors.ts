/**
 * Turns a bad settings file into one stderr line and exit code 2, for every command.
 */
import { SettingsFileError } from "../settings/settings_store.ts";

/** Runs `action`; a {@link SettingsFileError} becomes one stderr line and exit code 2. */
export function reportSettingsError(action: () => number | void): number {
  try {
    return action() ?? 0;
  } catch (error) {
    if (!(error instanceof SettingsFileError)) throw error;
    console.error(error.message);
    return 2;
  }
}
