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
   * escaped character's unit ends where its token does); undefined when the segment holds no
   * token, so that `text` is the segment.
   */
  from?: readonly number[];
  to?: readonly number[];
}

/**
 * The visible text of `segment` (placeholder tokens as the module doc says). `escaped`: the
 * tokens that stand for one escaped character ({@link TranslationItem.escapedCharacters}).
 * When dropping a token would let NFC join the characters around it (a combining mark right
 * after an element), inline elements count as white space instead, so the offsets still hold
 * in the NFC form the matcher reads.
 */
export function visibleText(
  segment: string,
  escaped?: TranslationItem["escapedCharacters"],
): VisibleText {
  if (!looksLikePlaceholder(segment) && !INVISIBLE.test(segment)) return { text: segment };
  const joined = build(segment, escaped, true);
  return joined.text.normalize("NFC") === joined.text ? joined : build(segment, escaped, false);
}

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

function build(
  segment: string,
  escaped: TranslationItem["escapedCharacters"],
  joinWords: boolean,
): VisibleText {
  const from: number[] = [];
  const to: number[] = [];
  let text = "";
  const copy = (start: number, end: number) => {
    for (let at = start; at < end; at++) {
      if (INVISIBLE.test(segment[at])) continue;
      from.push(at);
      to.push(at + 1);
      text += segment[at];
    }
  };
  const add = (unit: string, start: number, end: number) => {
    from.push(start);
    to.push(end);
    text += unit;
  };
  let at = 0;
  for (const [start, end] of placeholderLookalikes(segment)) {
    copy(at, start);
    at = end;
    const token = segment.slice(start, end);
    const characters = escaped?.[token];
    if (characters !== undefined) {
      for (const unit of characters) add(unit, start, end);
      continue;
    }
    const standalone = segment[end - 2] === "/";
    if (!standalone && joinWords) continue;
    const spaced = /\s/.test(segment[start - 1] ?? "") || /\s/.test(segment[end] ?? "");
    add(standalone && spaced ? "\ufffc" : " ", start, end);
  }
  copy(at, segment.length);
  return { text, from, to };
}
