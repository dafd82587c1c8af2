/**
 * The `tolk settings` a user without a settings session is told to run: the one that reaches
 * this service. Its address is the one the request came to (the Host header, kept loopback by
 * the Host check); a settings file other than the default is asked for as `--config FILE`,
 * never by its path: the page and its 401 answer any program on this computer without a
 * session, and a path under a home folder names the user.
 */
import { addressFlags, hostHeaderAddress } from "../net/serve_address.ts";
import { tolkCommand } from "../tolk_command.ts";

/** What `FILE` in {@link settingsLinkCommand} stands for, in the page's and the 401's words. */
export const CONFIG_FILE_NOTE =
  "FILE is the settings file this service was started with (its --config or $TOLK_CONFIG); " +
  "its path is not shown here, where any program on this computer can read it";

/**
 * `tolk settings` with the flags that reach the service the request came to.
 *
 * @example
 * ```ts
 * settingsLinkCommand("127.0.0.1:9000", { customConfig: true });
 * // deno task tolk settings --port 9000 --config FILE
 * ```
 */
export function settingsLinkCommand(
  hostHeader: string | undefined,
  options: { customConfig: boolean },
): string {
  const address = hostHeader === undefined ? null : hostHeaderAddress(hostHeader);
  return tolkCommand("settings", {
    ...(address === null ? {} : addressFlags(address)),
    ...(options.customConfig ? { config: "FILE" } : {}),
  });
}
