/**
 * Where a glossary term may stand in a text (DECISIONS.md, "Glossaries": whole words), one rule
 * for finding a source's terms (term_matcher.ts) and for checking a translation (term_check.ts).
 *
 * - Never inside an address: "example" is not in `https://example.com/docs`, `example@corp.com`
 *   or `example.org`, nor in a file path (`/etc/example/x.conf`), in any mode or format
 *   (replacing it there breaks the address). A term that is a whole address ("tolk.dev") still
 *   is one.
 * - A term is a whole word of a spaced script: no letter or digit of one right before or after
 *   it, whether the term's own edge is a letter or punctuation (".NET" is not in "ASP.NET", "C++"
 *   not in "C++x"). A dot between two letters or digits joins them into one word, so "NET" is not
 *   in "ASP.NET", "js" not in "Node.js", "2" not in "2.1".
 * - A term without a letter or digit ("++", "→") matches anywhere, and an edge in a script
 *   written without spaces (zh, ja, th, lo, km, my) needs no boundary: "数据库" is in
 *   "我们的数据库和", "東京" in "東京v2". A Latin edge keeps its boundary even in those texts:
 *   "api" is not in "使用rapid框架". Such an edge still never ends before a mark on its letter
 *   ("เก" is not in "เก่ง").
 */
import { addressSpans } from "../formats/message_spans.ts";
import { particlesEnd } from "./korean_particles.ts";

const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/u;
const MARK = /\p{M}/u;
const SPACELESS_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

// Whether each UTF-16 code unit continues a word, learnt on first sight: testing the regular
// expressions above costs more than the rest of a look-up.
const UNKNOWN = 0;
const IN_WORD = 1;
const NOT_IN_WORD = 2;
const unitClasses = new Uint8Array(0x10000);

/** {@link isWordChar} of one UTF-16 code unit, as a number (no string made while scanning). */
export function isWordUnit(unit: number): boolean {
  let known = unitClasses[unit];
  if (known === UNKNOWN) {
    known = isWordCodePoint(String.fromCharCode(unit)) ? IN_WORD : NOT_IN_WORD;
    unitClasses[unit] = known;
  }
  return known === IN_WORD;
}

/** True for one code point (one or two UTF-16 units) that continues a word of a spaced script. */
export function isWordCodePoint(char: string): boolean {
  return WORD_CHAR.test(char) && !SPACELESS_SCRIPT.test(char);
}

/**
 * True for a character that continues a word of a spaced script: a letter of Chinese, Japanese,
 * Thai, Lao, Khmer or Burmese next to a Latin term is a boundary ("東京のdatabase").
 */
export function isWordChar(char: string | undefined): boolean {
  return char !== undefined && char.length === 1 && isWordUnit(char.charCodeAt(0));
}

/**
 * True when the Korean word going on at `end` (right after a term) goes on only with particles
 * (translation/glossary/korean_particles.ts): the term then ends a word.
 */
export function particlesEndWord(text: string, end: number): boolean {
  const after = particlesEnd(text, end);
  return after !== undefined && !isWordChar(text[after]);
}

/**
 * What one edge of a term asks of the text beside it: `free` nothing (a term without a letter or
 * digit, or an edge in a script without spaces); `apart` no letter or digit right beside it (an
 * edge of punctuation: ".NET", "C++"); `word` that, and none across a dot either (an edge of a
 * letter or digit: "NET").
 */
export type Edge = "free" | "apart" | "word";

/** The edges of a term's key (its lower-cased, NFC form). */
export function termEdges(key: string): { start: Edge; end: Edge } {
  if (![...key].some(isWordCodePoint)) return { start: "free", end: "free" };
  const first = String.fromCodePoint(key.codePointAt(0)!);
  const last = [...key.slice(-2)].at(-1)!;
  return { start: edgeOf(first), end: edgeOf(last) };
}

function edgeOf(char: string): Edge {
  if (isWordCodePoint(char)) return "word";
  return SPACELESS_SCRIPT.test(char) ? "free" : "apart";
}

/** True when a term whose first edge is `edge` may start at `start` of `text`. */
export function startsWord(text: string, start: number, edge: Edge): boolean {
  if (edge === "free") return true;
  if (isWordChar(text[start - 1])) return false;
  return edge === "apart" || text[start - 1] !== "." || !isWordChar(text[start - 2]);
}

/**
 * True when a term whose last edge is `edge` may end at `end` of `text`. A free edge is still no
 * place to cut a character: a mark written on the term's last letter (Thai "เก่ง": a tone mark
 * on ก) belongs to it, so "เก" does not end there.
 */
export function endsWord(text: string, end: number, edge: Edge): boolean {
  if (edge === "free") return !MARK.test(text[end] ?? "");
  if (isWordChar(text[end])) return false;
  return edge === "apart" || text[end] !== "." || !isWordChar(text[end + 1]);
}

/**
 * A file path: from `/`, `~/`, `./` or `../` with one more `/` after a name (`/etc/tolk/x.conf`,
 * not "client/server" or "km/h"), or from a drive (`C:\\Tools\\x.ini`). Its names are a
 * program's, not words.
 */
const FILE_PATH =
  /(?<![\p{L}\p{N}_./~\\])(?:~|\.{1,2})?\/[^\s/]+\/\S*|(?<![\p{L}\p{N}_])[A-Za-z]:\\\S+/gu;

/**
 * A test of `text`'s spans: true when [start, end) cuts into an address or a file path (overlaps
 * one without covering it whole). They are found on the first call only.
 */
export function addressCutter(text: string): (start: number, end: number) => boolean {
  let spans: [number, number][] | undefined;
  return (start, end) => {
    // Every address holds a dot, an `@` or a colon (`http://localhost`, `mailto:`).
    spans ??= [
      ...(/[.@:]/.test(text) ? addressSpans(text) : []),
      ...[...text.matchAll(FILE_PATH)].map((
        m,
      ): [number, number] => [m.index, m.index + m[0].length]),
    ];
    return spans.some(([from, to]) => start < to && from < end && (from < start || end < to));
  };
}
