/**
 * ICU MessageFormat's apostrophes in the text of a message's branches: `''` is one apostrophe,
 * and a lone `'` before `{`, `}`, `#` or `|` opens a quote (ICU's default apostrophe mode, which
 * FormatJS follows). The engine reads `''` as the `'` it is; what it writes back is doubled where
 * ICU would read a quote, or everywhere where the message doubles its own (Java's MessageFormat
 * reads every lone `'` as a quote). An engine's `d'{owner}` would have shown `{owner}` as written,
 * and its bare `{` opened an argument: it is written `'{'`.
 *
 * Pure: no I/O.
 */
import type { Escape } from "./placeholders.ts";
import { icuSpans } from "./variable_spans.ts";

/**
 * Characters a lone apostrophe before them quotes, and an apostrophe (`''` is one): FormatJS
 * quotes `<` and `>` too (`l'<b>` shows `<b>` as written), and `''` is one apostrophe in Java's
 * and ICU4J's readings alike, so doubling there is safe for every reader.
 */
const QUOTING = "{}#|'<>";

/**
 * How the text of `unit` reads and is written back when it is an ICU message (it holds a
 * `plural`, `select` or `selectordinal`); `escape` is the mode's own, applied first.
 */
export function icuApostrophes(
  unit: string,
  escape: Escape | undefined,
): { escape?: Escape; decode?: (written: string) => string } {
  // A message with no apostrophe too: the engine's may need doubling.
  if (icuSpans(unit).length === 0) return { escape };
  const doubled = unit.includes("''");
  return {
    decode: (written) => written.replaceAll("''", "'"),
    escape: (text, before, after) =>
      quoteBraces(
        writeApostrophes(escape ? escape(text, before, after) : text, before, after, doubled),
      ),
  };
}

/**
 * An engine's bare `{` or `}` quoted (`'{'`): bare, it would open or close an argument and the
 * message no longer parse. Its apostrophes were written first, so one before the brace is `''`.
 */
function quoteBraces(run: string): string {
  return run.replace(/[{}]/g, "'$&'");
}

/**
 * A run of a message's text as ICU reads it: each apostrophe doubled (`doubled`), or only one
 * that would open a quote: before a quoting character, in the run or at the start of the markup
 * after it, or at the run's start right after a quote's closing `'` (`'{'''s`, not `'{''s`,
 * which reads on quoted).
 */
function writeApostrophes(
  run: string,
  before = "",
  after = "",
  doubled: boolean,
): string {
  if (!run.includes("'")) return run;
  if (doubled) return run.replaceAll("'", "''");
  let written = "";
  for (let at = 0; at < run.length; at++) {
    written += run[at];
    if (run[at] !== "'") continue;
    const next = at + 1 < run.length ? run[at + 1] : after[0];
    if ((next !== undefined && QUOTING.includes(next)) || (at === 0 && before.endsWith("'"))) {
      written += "'";
    }
  }
  return written;
}
