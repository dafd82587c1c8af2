/**
 * Waiting for a log line: a line a service writes is read by the test some time after the event
 * it follows (another pipe, another turn), so a test waits for it instead of looking at once.
 */

/** Options of {@link waitForLine}. */
export interface WaitForLineOptions {
  /** Settles when no more lines can come (the process's stderr ended): fail at once then. */
  ended?: Promise<void>;
  /** What the lines are, for the failure message (default "log"). */
  source?: string;
}

/**
 * Resolves to the first of `lines` matching `pattern`, once it is there (`lines` is the array
 * the log is collected into, read again on each look).
 *
 * @throws {Error} with every line collected when `ended` settles, or 30 s pass, first.
 * @example
 * ```ts
 * await waitForLine(service.logs, / ws closed after 2 frames$/);
 * ```
 */
export async function waitForLine(
  lines: readonly string[],
  pattern: RegExp,
  options: WaitForLineOptions = {},
): Promise<string> {
  let ended = false;
  options.ended?.then(() => ended = true);
  const deadline = Date.now() + 30_000;
  for (;;) {
    // `ended` is read before the lines: those collected just before the end are still seen.
    const finished = ended;
    const line = lines.find((line) => pattern.test(line));
    if (line !== undefined) return line;
    if (finished || Date.now() > deadline) {
      const why = finished ? "before it ended" : "within 30 s";
      const source = options.source ?? "log";
      throw new Error(`no ${source} line matched ${pattern} ${why}:\n${lines.join("\n")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
