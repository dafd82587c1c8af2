/**
 * Where `tolk serve` listens unless told otherwise, and the `--host`/`--port` flags that name
 * another address: one rule for the hints of `tolk settings` (which service to start) and of
 * the settings page (which `tolk settings` to run).
 */
import { bindHostname } from "./loopback.ts";

/** The port `tolk serve` listens on unless told otherwise, and where `tolk settings` looks. */
export const SERVE_PORT = 8765;

/** The address `tolk serve` binds, and `tolk settings` looks at, unless told otherwise. */
export const DEFAULT_HOST = "127.0.0.1";

/**
 * The `--host`/`--port` flags that name `address`, leaving out the defaults.
 *
 * @example
 * ```ts
 * addressFlags({ host: "::1", port: 8766 }); // { host: "::1", port: "8766" }
 * addressFlags({ host: "127.0.0.1", port: 8765 }); // {}
 * ```
 */
export function addressFlags(address: { host: string; port: number }): Record<string, string> {
  const host = bindHostname(address.host);
  return {
    ...(host === DEFAULT_HOST ? {} : { host }),
    ...(address.port === SERVE_PORT ? {} : { port: String(address.port) }),
  };
}

/**
 * The address a `Host` header names (`127.0.0.2:9000`, `[::1]:8766`, `localhost` for port 80),
 * or null when it is no `name[:port]`. The caller's Host check has already kept it loopback.
 */
export function hostHeaderAddress(header: string): { host: string; port: number } | null {
  let url: URL;
  try {
    url = new URL(`http://${header}`);
  } catch {
    return null;
  }
  if (url.host !== header.toLowerCase()) return null; // a path, a user name: not a Host value
  return { host: url.hostname, port: url.port === "" ? 80 : Number(url.port) };
}
