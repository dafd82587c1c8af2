/**
 * Paired markup that may have to be written otherwise where the translation put it: Markdown's
 * `_very_` opens and closes emphasis only at a word's edge, and a translation into Japanese
 * glues it to letters (`これは_とても_重要です` shows the underscores). A format that cares
 * gives a {@link Respell}; each open/close pair is offered it with the characters around it.
 *
 * Pure: no I/O.
 */
import type { Markup } from "./placeholders.ts";

/** The characters around an open/close pair in the output ("" at the segment's ends). */
export interface PairEdges {
  /** Before the open, and the first inside it. */
  before: string;
  first: string;
  /** The last inside the close, and after it. */
  last: string;
  after: string;
}

/** New spellings of an open and its close, or undefined to keep them as rendered. */
export type Respell = (
  open: string,
  close: string,
  edges: PairEdges,
) => [string, string] | undefined;

/**
 * Joins the rendered pieces of a segment, each open/close pair respelled where `respell` asks.
 * `marks` holds each markup piece's index in `pieces`, in order.
 */
export function joinRespelled(
  pieces: string[],
  marks: readonly (readonly [number, Markup])[],
  respell: Respell,
): string {
  const opens: number[] = [];
  for (const [at, markup] of marks) {
    if (markup.role === "open") opens.push(at);
    if (markup.role !== "close" || opens.length === 0) continue;
    const start = opens.pop()!;
    const edges = {
      before: charBefore(pieces, start),
      first: charAfter(pieces, start),
      last: charBefore(pieces, at),
      after: charAfter(pieces, at),
    };
    const spelled = respell(pieces[start], pieces[at], edges);
    if (spelled !== undefined) [pieces[start], pieces[at]] = spelled;
  }
  return pieces.join("");
}

/** The last code point of the pieces before `index`. */
function charBefore(pieces: readonly string[], index: number): string {
  for (let at = index - 1; at >= 0; at--) {
    const piece = pieces[at];
    if (piece.length === 0) continue;
    const unit = piece.charCodeAt(piece.length - 1);
    return piece.slice(unit >= 0xdc00 && unit <= 0xdfff && piece.length > 1 ? -2 : -1);
  }
  return "";
}

/** The first code point of the pieces after `index`. */
function charAfter(pieces: readonly string[], index: number): string {
  for (let at = index + 1; at < pieces.length; at++) {
    const piece = pieces[at];
    if (piece.length > 0) return String.fromCodePoint(piece.codePointAt(0)!);
  }
  return "";
}
