/**
 * Lines to stdout (one, or many as `tolk history export` writes), written in chunks and with the two ways a write
 * can end told apart: the reader went away (`| head -1`), which stops the work quietly, and a
 * real failure (`> file` on a full disk), which the command reports in one line.
 *
 * `console.log` does neither: it drops a closed pipe's error, so an export kept reading every
 * row for nobody, and it throws a full disk's as an uncaught stack trace. Every line a command
 * prints on stdout goes through here (`printLine` for one).
 */

/** Characters gathered before one write: a write per line was most of an export's time. */
const CHUNK_CHARS = 32 * 1024;

/** Where the lines go (stdout; a test may pass another). */
export interface LineSink {
  writeSync(bytes: Uint8Array): number;
}

/** stdout could not be written; the message says why (the system's words). */
export class OutputError extends Error {
  override name = "OutputError";
}

/**
 * Writes each of `lines` and a "\n" to `sink`; false when the reader closed the pipe first (the
 * rest of `lines` is never read).
 *
 * @throws {OutputError} when a write fails for any other reason.
 * @example
 * ```ts
 * writeLines(rows.map((row) => JSON.stringify(row)));
 * ```
 */
export function writeLines(lines: Iterable<string>, sink: LineSink = Deno.stdout): boolean {
  const encoder = new TextEncoder();
  let chunk = "";
  for (const line of lines) {
    chunk += `${line}\n`;
    if (chunk.length < CHUNK_CHARS) continue;
    if (!writeAll(sink, encoder.encode(chunk))) return false;
    chunk = "";
  }
  return chunk === "" || writeAll(sink, encoder.encode(chunk));
}

/**
 * Writes `text` and a "\n" to stdout as `console.log` would, with {@link writeLines}' two
 * endings: a reader that went away is quiet, any other failure throws.
 *
 * @throws {OutputError} when the write fails (`main.ts` says it in one line, exit code 1).
 * @example
 * ```ts
 * printLine(settings.api.token);
 * ```
 */
export function printLine(text: string, sink: LineSink = Deno.stdout): void {
  writeLines([text], sink);
}

/** Writes every byte (a pipe may take part of them); false when the reader is gone. */
function writeAll(sink: LineSink, bytes: Uint8Array): boolean {
  try {
    for (let at = 0; at < bytes.length;) at += sink.writeSync(bytes.subarray(at));
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.BrokenPipe) return false;
    throw new OutputError((error as Error).message, { cause: error });
  }
}
