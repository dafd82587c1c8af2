/**
 * The words a reader sees in a segment that holds placeholder tokens (README, "Glossaries"):
 * glossary terms are found, and checked in translations, in this text, so markup inside a word
 * never cuts it in two and never makes a word of a piece of one.
 *
 * - An inline element's tokens (`<x1>`, `</x1>`) take no room: `server<x1>s</x1>` reads
 *   "servers" (no "server" in it), `<x1>Ser</x1>ver` reads "Server", `<x1>New</x1> York`
 *   reads "New York".
 * - A standalone token for escaped characters (Markdown's `\_`, `\_\_`) is those characters:
 *   `\_\_init\_\_` reads `__init__`, `C\+\+` reads `C++`.
 * - A soft hyphen, zero-width space, word joiner or U+FEFF takes no room either: each is a
 *   place a word may break or must not, never a break a reader sees ("Daten\u00adbank",
 *   also written `Daten&shy;bank`, reads "Datenbank").
 * - White space holding a paragraph break is U+FFFC ({@link apartParagraphs}).
 * - Any other standalone token between two words is a space (a wrapped line, a `<br>`, an
 *   `&nbsp;`: `translation<x1/>memory`); with white space beside it (a code span, an image:
 *   `the <x2/> server`) it is U+FFFC, a word boundary that no term spans.
 */
import type { TranslationItem } from "../../engines/engine.ts";
import { looksLikePlaceholder, placeholderLookalikes } from "../../engines/placeholder_tokens.ts";

/** A segment's visible text, with where each of its UTF-16 units comes from in the segment. */
export interface VisibleText {
  text: string;
  /**
   * Where the unit at each offset of `text` starts in the segment, and where it ends there (an
   * escaped character's unit ends where its token does); undefined when the text has the
   * segment's offsets (no token, nothing invisible: at most paragraph breaks, unit for unit).
   */
  from?: ArrayLike<number>;
  to?: ArrayLike<number>;
}

/**
 * The visible text of `segment` (placeholder tokens as the module doc says). `escaped`: the
 * tokens that stand for escaped characters ({@link TranslationItem.escapedCharacters}).
 * When dropping a token would let NFC join the characters around it (a combining mark right
 * after an element), inline elements count as white space instead, so the offsets still hold
 * in the NFC form the matcher reads.
 */
export function visibleText(
  segment: string,
  escaped?: TranslationItem["escapedCharacters"],
): VisibleText {
  if (!looksLikePlaceholder(segment) && !INVISIBLE.test(segment)) {
    return { text: apartParagraphs(segment) };
  }
  let visible = build(segment, escaped, true);
  if (visible.text.normalize("NFC") !== visible.text) visible = build(segment, escaped, false);
  return { ...visible, text: apartParagraphs(visible.text) };
}

/**
 * A blank line (even one of spaces, CRLF or not), U+2029 or a form feed parts paragraphs or
 * pages: white space holding one is U+FFFC, unit for unit, so no term spans it. A term matched
 * across it had the engine merge the paragraphs.
 */
function apartParagraphs(text: string): string {
  if (!PARAGRAPH_BREAK.test(text)) return text;
  return text.replace(
    /\s+/g,
    (run) => PARAGRAPH_BREAK.test(run) ? "\ufffc".repeat(run.length) : run,
  );
}

// CRLF is one line break, never a CR and then an LF.
const LINE_BREAK = String.raw`(?:\r\n|\r(?!\n)|[\n\u2028])`;
const PARAGRAPH_BREAK = new RegExp(
  `${LINE_BREAK}[^\\S\\r\\n\\u2028\\u2029]*${LINE_BREAK}|[\\u2029\\f]`,
);

/** A span of the visible text, as offsets of the segment it was read from. */
export function segmentSpan(
  visible: VisibleText,
  start: number,
  end: number,
): { start: number; end: number } {
  if (!visible.from || !visible.to) return { start, end };
  return { start: visible.from[start], end: visible.to[end - 1] };
}

/** Characters that take no room in the visible text (see the module doc). */
const INVISIBLE = /[\u00ad\u200b\u2060\ufeff]/;

function isInvisible(unit: number): boolean {
  return unit === 0xad || unit === 0x200b || unit === 0x2060 || unit === 0xfeff;
}

function build(
  segment: string,
  escaped: TranslationItem["escapedCharacters"],
  joinWords: boolean,
): VisibleText {
  const tokens = placeholderLookalikes(segment);
  // Typed arrays, sized once: pushing onto two arrays cost more than the whole match.
  let capacity = segment.length;
  for (const [start, end] of tokens) {
    capacity += escaped?.[segment.slice(start, end)]?.length ?? 0;
  }
  const from = new Int32Array(capacity);
  const to = new Int32Array(capacity);
  let size = 0;
  let text = "";
  const copy = (start: number, end: number) => {
    let kept = start;
    for (let at = start; at < end; at++) {
      if (isInvisible(segment.charCodeAt(at))) {
        text += segment.slice(kept, at);
        kept = at + 1;
        continue;
      }
      from[size] = at;
      to[size++] = at + 1;
    }
    text += segment.slice(kept, end);
  };
  const add = (unit: string, start: number, end: number) => {
    from[size] = start;
    to[size++] = end;
    text += unit;
  };
  let at = 0;
  for (const [start, end] of tokens) {
    copy(at, start);
    at = end;
    const characters = escaped?.[segment.slice(start, end)];
    if (characters !== undefined) {
      for (let i = 0; i < characters.length; i++) add(characters[i], start, end);
      continue;
    }
    const standalone = segment[end - 2] === "/";
    if (!standalone && joinWords) continue;
    const spaced = /\s/.test(segment[start - 1] ?? "") || /\s/.test(segment[end] ?? "");
    add(standalone && spaced ? "\ufffc" : " ", start, end);
  }
  copy(at, segment.length);
  return { text, from: from.subarray(0, size), to: to.subarray(0, size) };
}
