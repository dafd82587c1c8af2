/**
 * `tolk settings [--host HOST] [--port PORT] [--config FILE]`: prints a one-time link to the
 * settings page of the running service (one use, 5 minutes), or says that none is running.
 *
 * The command proves it may ask by signing the request with the settings file's link key (see
 * settings/settings_link.ts); the key never leaves the file.
 */
import { z } from "zod";
import { LOOPBACK_RULE, urlHostname } from "../net/loopback.ts";
import { LinkResponseSchema } from "../schemas/settings_page.ts";
import { signLinkRequest } from "../settings/settings_link.ts";
import { generateToken, SettingsStore } from "../settings/settings_store.ts";
import { addressFlags, SERVE_PORT } from "../net/serve_address.ts";
import { configFlag, pathFlagsForHint, pathFlagsFromEnvironment } from "./config_paths.ts";
import { type CommandUsage, loopbackHostFlag, parseCommand, portFlag } from "./flags.ts";
import { reportSettingsError } from "./settings_errors.ts";
import { printLine } from "./stdout_lines.ts";
import { tolkCommand } from "../tolk_command.ts";

const FlagsSchema = z.object({
  host: loopbackHostFlag(`must be loopback (${LOOPBACK_RULE}), as \`tolk serve\` binds`)
    .describe(`the address \`tolk serve\` listens on, loopback only (${LOOPBACK_RULE})`),
  // 0 is serve's "pick a free one", never a port a service is found on.
  port: portFlag()
    .refine(
      (port) => port !== 0,
      "must be at least 1 (the port `tolk serve` printed it listens on)",
    )
    .default(SERVE_PORT).describe("the TCP port `tolk serve` listens on"),
  config: configFlag,
});

/** `tolk settings` in the help text. */
export const usage = {
  name: "settings",
  summary: "print a one-time link (one use, 5 minutes) to the running service's settings page",
  flags: FlagsSchema,
  environment: ["TOLK_CONFIG"],
} satisfies CommandUsage;

/** Runs `tolk settings`. */
export async function run(args: string[]): Promise<number> {
  const { flags } = parseCommand(args, usage, { env: pathFlagsFromEnvironment() });
  const configPath = flags.config;
  // The service these flags look for, as the hints name it: started so, it is the one found.
  const serve = tolkCommand("serve", {
    ...addressFlags(flags),
    ...pathFlagsForHint({ config: configPath }),
  });
  const store = new SettingsStore(configPath);
  if (!store.exists()) {
    // False too where the sandbox may not look: the read says why (one line, exit code 2).
    const unreadable = reportSettingsError(() => void store.read());
    if (unreadable !== 0) return unreadable;
    console.error(
      `no settings file at ${configPath}: start the service with \`${serve}\` ` +
        "(or pass the --config it uses)",
    );
    return 1;
  }
  let key: string | null = null;
  const status = reportSettingsError(() => {
    key = store.read().settings_page.link_key ??
      store.update((settings) => {
        settings.settings_page.link_key ??= generateToken();
      }).settings_page.link_key;
  });
  if (status !== 0 || key === null) return status || 2;
  const address = `${urlHostname(flags.host)}:${flags.port}`;
  return await requestLink(address, key, { configPath, serve });
}

/**
 * Asks the service at `address` (`HOST:PORT`) for a link and prints it; `serve` is the command
 * that starts that service.
 */
async function requestLink(
  address: string,
  key: string,
  { configPath, serve }: { configPath: string; serve: string },
): Promise<number> {
  const origin = `http://${address}`;
  let response: Response;
  try {
    response = await fetch(`${origin}/settings/link`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(signLinkRequest(key)),
      signal: AbortSignal.timeout(5_000),
    });
  } catch {
    console.error(
      `no tolk service answers on ${address}: start it with \`${serve}\` ` +
        "(or pass its --host and --port)",
    );
    return 1;
  }
  const text = await response.text();
  if (response.status === 401) {
    console.error(
      `the service on ${address} does not use the settings file ${configPath} (pass the --config it uses)`,
    );
    return 1;
  }
  const parsed = response.ok ? LinkResponseSchema.safeParse(safeJson(text)) : undefined;
  if (!parsed?.success) {
    console.error(`the server on ${address} is not a tolk service with a settings page`);
    return 1;
  }
  printLine(`${origin}/settings?code=${parsed.data.code}`);
  console.error("open it within 5 minutes; it works once");
  return 0;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
