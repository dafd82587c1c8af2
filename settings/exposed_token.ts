/**
 * A settings file holding the API token that other users of the machine may read. tolk writes
 * it with mode 0600, but a file made by hand or copied (`cp`, an editor's save-as) gets the
 * umask's 0644, and then any local account can call the API as the user.
 */
import type { Settings } from "../schemas/settings.ts";
import { shellWord } from "../tolk_command.ts";

/**
 * One line saying that `path` (whose content is `settings`) holds the token and is readable by
 * its group or others, ending with the command that fixes it; null when it is not, or on a
 * system without POSIX modes.
 *
 * @example
 * ```ts
 * const warning = exposedTokenWarning(store.path, store.read());
 * if (warning) console.error(warning);
 * ```
 */
export function exposedTokenWarning(path: string, settings: Settings): string | null {
  if (settings.api.token === null) return null;
  let mode: number | null;
  try {
    mode = Deno.statSync(path).mode;
  } catch {
    return null; // gone meanwhile: nothing to warn about
  }
  if (mode === null || (mode & 0o044) === 0) return null;
  const octal = (mode & 0o777).toString(8);
  return `settings file ${path} holds the API token and is readable by other users ` +
    `(mode ${octal}): \`chmod 600 ${shellWord(path)}\``;
}
