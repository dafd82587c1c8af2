/**
 * The loopback rule, in one place: which bind addresses, `Host` header values and URLs name the
 * loopback interface.
 *
 * Loopback is `localhost`, any IPv4 address in 127.0.0.0/8 written as a dotted quad, and `::1`
 * (bracketed in a URL or a `Host` header). `tolk serve` binds only to such an address, its Host
 * check accepts only such a name, and engine URLs in the settings must use one, so a service
 * bound to 127.0.0.2 accepts `Host: 127.0.0.2:PORT` by construction.
 */

/** The rule in words, for error messages. */
export const LOOPBACK_RULE = "127.0.0.0/8, ::1 or localhost";

/** The rule in words for a `Host` header, where IPv6 is bracketed and a port may follow. */
export const LOOPBACK_HOST_RULE = "localhost, 127.0.0.0/8 or [::1], any port";

/**
 * Deno `--allow-net` entries that cover every loopback name of {@link LOOPBACK_RULE}, any port.
 * Deno 2.9 accepts CIDR ranges for IPv4.
 */
export const LOOPBACK_NET_PERMISSION = ["127.0.0.0/8", "localhost", "[::1]"] as const;

const IPV4_OCTET = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const LOOPBACK_IPV4 = new RegExp(`^127(\\.${IPV4_OCTET}){3}$`);

/**
 * True when `name` is a loopback host name: `localhost`, 127.x.y.z or `::1` (`[::1]` as in a
 * URL). Case does not matter; no port.
 *
 * @example
 * ```ts
 * isLoopbackName("127.0.0.2"); // true
 * isLoopbackName("0.0.0.0"); // false
 * ```
 */
export function isLoopbackName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === "localhost" || lower === "::1" || lower === "[::1]" || LOOPBACK_IPV4.test(lower);
}

/** True when `host` is a bind address on the loopback interface (`--host` of serve and infer). */
export function isLoopbackBind(host: string): boolean {
  return isLoopbackName(host);
}

/**
 * True when a `Host` header value (`name` or `name:port`, IPv6 in brackets) names loopback.
 * A name a DNS server could answer for (`127.0.0.1.nip.io`) is not loopback: that is the
 * DNS-rebinding attack the check exists to stop.
 */
export function isLoopbackHostHeader(host: string): boolean {
  // A bare IPv6 address cannot appear here: the name part has brackets or no colon.
  const match = /^(\[[^\]]*\]|[^:\[\]]*)(?::\d{1,5})?$/.exec(host);
  return match !== null && isLoopbackName(match[1]);
}

/** True when `url` is an http(s) URL whose host is loopback. */
export function isLoopbackUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (parsed.protocol === "http:" || parsed.protocol === "https:") &&
    isLoopbackName(parsed.hostname);
}

/** The address to hand to `Deno.serve` (IPv6 without brackets). */
export function bindHostname(host: string): string {
  return host.replace(/^\[(.*)\]$/, "$1");
}

/**
 * The host of an `http://HOST:PORT` URL for an address: IPv6 in brackets, others as they are.
 *
 * @example
 * ```ts
 * urlHostname("::1"); // "[::1]"
 * urlHostname("127.0.0.2"); // "127.0.0.2"
 * ```
 */
export function urlHostname(host: string): string {
  const bare = bindHostname(host);
  return bare.includes(":") ? `[${bare}]` : bare;
}
