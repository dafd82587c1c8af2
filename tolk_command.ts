/**
 * How the user runs a tolk command, for every hint that says what to run: `tolk …` from the
 * compiled binary, `deno task tolk …` from a checkout (the README's way). A hint saying plain
 * `tolk api enable` sent a README reader to "command not found".
 */

/** The command line that runs `tolk <args>` the way this process was started. */
export function tolkCommand(args: string): string {
  return `${Deno.build.standalone ? "tolk" : "deno task tolk"} ${args}`;
}

/** Said wherever the API is refused because it is off (HTTP, WebSocket handshakes, compat). */
export const API_DISABLED_MESSAGE = `the local API is disabled; enable it with \`${
  tolkCommand("api enable")
}\``;
