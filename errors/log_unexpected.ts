/**
 * How both services log an error nobody expected: name and stack frames only, because an
 * error's message may quote request contents (and sensitive requests must leave no trace).
 */

/** Writes one entry for an unexpected error, without its message. */
export function logUnexpected(
  log: (line: string) => void,
  requestId: string,
  thrown: unknown,
): void {
  const error = thrown instanceof Error ? thrown : new Error("non-error thrown");
  const frames = (error.stack ?? "").split("\n").filter((line) => line.trim().startsWith("at "));
  log(`${requestId} unexpected ${error.name}\n${frames.slice(0, 8).join("\n")}`);
}
