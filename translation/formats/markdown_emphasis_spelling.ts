/**
 * Emphasis markers where a translation put them. CommonMark opens and closes emphasis by the
 * characters around a delimiter run ("flanking"): `_` only at a word's edge, `*` inside words
 * too but not between a letter and punctuation. A translation into a language written without
 * spaces glues markers to letters (`これは_とても_重要です`, `是*“重要”*的`) and a reader sees the
 * delimiters as text. Such a pair is written with `*` when that opens and closes there, else as
 * HTML (`<em>`, `<strong>`), which CommonMark reads anywhere; a pair that still works stays as
 * written.
 *
 * Pure: no I/O.
 */
import type { PairEdges, Respell } from "./placeholder_respell.ts";

const DELIMITER_RUN = /^(?:\*{1,3}|_{1,3})$/;
const WHITE_SPACE = /^(?:\s|)$/u;
/** CommonMark 0.31's Unicode punctuation: general categories P and S. */
const PUNCTUATION = /^[\p{P}\p{S}]$/u;
const HTML_OPEN = ["", "<em>", "<strong>", "<em><strong>"];
const HTML_CLOSE = ["", "</em>", "</strong>", "</strong></em>"];

/** Markdown's {@link Respell}: emphasis markers that would no longer open and close. */
export const respellEmphasis: Respell = (open, close, edges) => {
  if (open !== close || !DELIMITER_RUN.test(open)) return undefined;
  if (opensAndCloses(open[0], edges)) return undefined;
  if (open[0] === "_" && opensAndCloses("*", edges)) {
    return ["*".repeat(open.length), "*".repeat(open.length)];
  }
  return [HTML_OPEN[open.length], HTML_CLOSE[open.length]];
};

function opensAndCloses(marker: string, { before, first, last, after }: PairEdges): boolean {
  const opens = leftFlanking(before, first) &&
    (marker === "*" || !rightFlanking(before, first) || PUNCTUATION.test(before));
  const closes = rightFlanking(last, after) &&
    (marker === "*" || !leftFlanking(last, after) || PUNCTUATION.test(after));
  return opens && closes;
}

/** A delimiter run between `previous` and `next` may open ("" is a line's edge). */
function leftFlanking(previous: string, next: string): boolean {
  if (WHITE_SPACE.test(next)) return false;
  return !PUNCTUATION.test(next) || WHITE_SPACE.test(previous) || PUNCTUATION.test(previous);
}

/** A delimiter run between `previous` and `next` may close. */
function rightFlanking(previous: string, next: string): boolean {
  if (WHITE_SPACE.test(previous)) return false;
  return !PUNCTUATION.test(previous) || WHITE_SPACE.test(next) || PUNCTUATION.test(next);
}
