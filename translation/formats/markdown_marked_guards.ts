/**
 * Where marked and micromark part: shapes on which marked's tokens, though they align with the
 * source, would cut a document otherwise than micromark (lazy continuation lines, emphasis and
 * brackets left unpaired, bare addresses at odd bounds). markdown_marked.ts declines them and
 * micromark reads the document. Each rule was found by comparing both readers' cuts on
 * generated documents (tests/translation/formats/markdown_readers_test.ts).
 */
import { MICROMARK_EMAIL } from "./markdown_scan_links.ts";

/**
 * False where marked is not tried at all: a NUL (U+FFFD to micromark); five spaces or a tab
 * after a list marker (indented code, or columns marked does not count); an unclosed `---` or
 * `+++` on line 1 (micromark's front matter attempt reads what follows otherwise); more than
 * {@link MARKED_DELIMITER_RUNS} runs of `*`, `_` or `~`.
 */
export function markedMayRead(source: string, body: number): boolean {
  if (source.includes("\0") || LIST_MARKER_GAP.test(source)) return false;
  if (delimiterRuns(source) > MARKED_DELIMITER_RUNS) return false;
  return body > 0 || !/^(?:---|\+\+\+)/.test(source);
}

/**
 * marked looks for the closer of each emphasis opener through the rest of the text, so its
 * time grows with the square of the delimiter runs left unpaired (`a*_` repeated: 200 runs in
 * 8,000 code points 4 ms, 800 runs 50 ms, 2,666 runs 0.52 s); micromark, with the pairing of
 * markdown_micromark_pairing.ts, reads such a text in 4 to 9 ms whatever their number. Past
 * this many runs micromark reads the document (the corpus's documents hold at most 9, the 455
 * Markdown files of up to 8,000 characters found on the development machine at most 147).
 */
export const MARKED_DELIMITER_RUNS = 200;

/** Runs of `*`, `_` and `~` (a run of mixed ones counts once). */
function delimiterRuns(source: string): number {
  let runs = 0;
  for (let at = 0; at < source.length; at++) {
    if (!isDelimiter(source.charCodeAt(at))) continue;
    runs++;
    while (at + 1 < source.length && isDelimiter(source.charCodeAt(at + 1))) at++;
  }
  return runs;
}

/** `*`, `_` or `~`. */
function isDelimiter(code: number): boolean {
  return code === 42 || code === 95 || code === 126;
}

const LIST_MARKER_GAP = /^[ \t>]*(?:[*+-]|\d{1,9}[.)])(?: {5}| {0,4}\t)/m;

/**
 * After a list item or footnote, at `at`: false when the next line is not blank and starts no
 * item or footnote, a lazy continuation line, which marked and micromark attach differently.
 */
export function endsAtBreak(source: string, at: number): boolean {
  return nextLineIs(source, at, BREAK_AFTER);
}

const BREAK_AFTER = /[ \t>]*(?:\r?\n|$)|[ \t>]*(?:[*+-]|\d{1,9}[.)])(?:[ \t]|\r?\n|$)|[ \t>]*\[\^/y;

/** After a reference definition: false when a line indented as code follows (micromark reads
 * it as a paragraph, marked as code). */
export function notIndentedAfter(source: string, at: number): boolean {
  return nextLineIs(source, at, NOT_INDENTED);
}

const NOT_INDENTED = /(?! {4}| {0,3}\t)/y;

/** Whether the line after the one at `at` (or the one at `at`, at a line start) matches. */
function nextLineIs(source: string, at: number, line: RegExp): boolean {
  if (source[at - 1] !== "\n") {
    while (source[at] === " " || source[at] === "\t" || source[at] === "\r") at++;
    if (at >= source.length) return true;
    if (source[at] !== "\n") return false;
    at++;
  }
  line.lastIndex = at;
  return at >= source.length || line.test(source);
}

/**
 * A table or HTML block at `from`: false right under a line of text, where micromark may read
 * its first line as that text's lazy continuation (`<br/>` cannot interrupt a paragraph).
 */
export function afterBlankLine(source: string, from: number): boolean {
  const before = source.slice(Math.max(0, from - 80), from);
  return from === 0 || /(?:^|\n)[ \t>]*\r?\n[ \t>]*$/.test(before) || /^[ \t>]*$/.test(before);
}

/** Characters of text that marked may pair differently from micromark (see plainText). */
const MARKUP_CHARACTER = /[*_~[\]<`$]/;

/**
 * Text that marked left as text at [from, to): false where it holds a character of inline
 * syntax that micromark may pair otherwise (emphasis runs, brackets, math dollars, back-ticks,
 * `<`), unless the character cannot open or close anything: `_` inside a word, `*` between
 * spaces, an empty `[]` that no `(` or `[` follows (`string[]`).
 */
export function plainText(source: string, from: number, to: number): boolean {
  if (!MARKUP_CHARACTER.test(source.slice(from, to))) return true;
  for (let at = from; at < to; at++) {
    const character = source[at];
    if (!MARKUP_CHARACTER.test(character)) continue;
    const before = source[at - 1] ?? " ";
    const after = source[at + 1] ?? " ";
    if (character === "_" && /[\p{L}\p{N}]/u.test(before) && /[\p{L}\p{N}]/u.test(after)) continue;
    if (character === "*" && /\s/.test(before) && /\s/.test(after)) continue;
    if (character === "[" && after === "]" && !/[([]/.test(source[at + 2] ?? "")) {
      at++;
      continue;
    }
    return false;
  }
  return true;
}

/**
 * A bare address (`www.`, `https://`, an e-mail) marked linked at [from, to): micromark links
 * one only after white space, `(` or an emphasis marker (an e-mail after white space only), and
 * ends it otherwise at brackets, quotes and trailing markers, and takes fewer strings for e-mail
 * addresses ({@link MICROMARK_EMAIL}).
 */
export function literalAutolinkAgrees(
  source: string,
  raw: string,
  from: number,
  to: number,
): boolean {
  const email = !/^(?:www\.|[a-z]+:)/i.test(raw);
  if (email && !MICROMARK_EMAIL.test(raw)) return false;
  if (from > 0 && !(email ? /\s/ : /[\s(*_~]/).test(source[from - 1])) return false;
  const end = email ? /^[.,:;!?]*(?:\s|$)/ : /^[.,:;!?*_~]*(?:\s|$)/;
  return !/[[\]()<>'"]/.test(raw) && end.test(source.slice(to, to + 40));
}
