/**
 * The `tolk settings` a user without a settings session is told to run: the one that reaches
 * this service. Its address is the one the request came to (the Host header, kept loopback by
 * the Host check); a settings file other than the default is asked for as `--config FILE`,
 * never by its path, where the answer goes to any program on this computer (the page without a
 * session, the 401): a path under a home folder names the user. The session's own page, which
 * shows the token and the models folder to its holder, names the path.
 */
import { addressFlags, hostHeaderAddress } from "../net/serve_address.ts";
import { tolkCommand } from "../tolk_command.ts";

/** What `FILE` in {@link settingsLinkCommand} stands for, in the page's and the 401's words. */
export const CONFIG_FILE_NOTE =
  "FILE is the settings file this service was started with (its --config or $TOLK_CONFIG); " +
  "its path is not shown here, where any program on this computer can read it";

/**
 * `tolk settings` with the flags that reach the service the request came to; `config` is what
 * follows `--config` (`FILE` where the path must not be shown), null for the default file.
 *
 * @example
 * ```ts
 * settingsLinkCommand("127.0.0.1:9000", { config: "FILE" });
 * // deno task tolk settings --port 9000 --config FILE
 * ```
 */
export function settingsLinkCommand(
  hostHeader: string | undefined,
  options: { config: string | null },
): string {
  const address = hostHeader === undefined ? null : hostHeaderAddress(hostHeader);
  return tolkCommand("settings", {
    ...(address === null ? {} : addressFlags(address)),
    ...(options.config === null ? {} : { config: options.config }),
  });
}

/**
 * Said wherever the API is refused because it is off (HTTP, WebSocket handshakes, compat
 * routes): the `tolk api enable` that turns it on, with `--config FILE` when the service reads
 * another settings file than the default (a bare command there enabled the default file).
 */
export function apiDisabledMessage(customConfig: boolean): string {
  const command = tolkCommand("api enable", customConfig ? { config: "FILE" } : {});
  const note = customConfig ? ` (${CONFIG_FILE_NOTE})` : "";
  return `the local API is disabled; enable it with \`${command}\`${note}`;
}
