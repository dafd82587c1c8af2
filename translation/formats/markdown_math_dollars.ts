/**
 * Which dollars are inline math: Pandoc's rule (its `tex_math_dollars`), which every reader of
 * the Markdown cut applies (our scanner, marked's lexer and micromark), so that prices are text.
 * micromark-extension-math pairs any two dollars as code spans pair back-ticks: `It costs $5
 * and $10 today.` read `5 and ` as math, kept from the engine. With one dollar, the opening `$`
 * needs a character other than white space right after it, and the closing `$` one right before
 * it and no digit right after it. `$$…$$` is display math, as written (no such conditions).
 */

/**
 * A character as the readers see it: a UTF-16 code (NaN past either end of the source), or
 * micromark's code (null at the end of the text, negative for tabs, virtual spaces and line
 * endings).
 */
export type MathCode = number | null;

const DOLLAR = 36;
const WHITE_SPACE = /\s/;

/** Whether `code` is white space, a line ending or no character at all. */
function blank(code: MathCode): boolean {
  if (code === null || !(code >= 0)) return true;
  return WHITE_SPACE.test(String.fromCharCode(code));
}

function digit(code: MathCode): boolean {
  return code !== null && code >= 48 && code <= 57;
}

/** Whether a run of `size` dollars followed by `next` may open inline math. */
export function opensMath(size: number, next: MathCode): boolean {
  return size !== 1 || !blank(next);
}

/**
 * Whether a run of `size` dollars, matching the opening run, closes inline math: `before` is
 * the character before it, `after` the one after it.
 */
export function closesMath(size: number, before: MathCode, after: MathCode): boolean {
  return size !== 1 || (!blank(before) && !digit(after));
}

/**
 * Whether `source`'s [from, to), a run of dollars up to the next run of the same size (as code
 * spans pair back-ticks), is inline math. `closingStartsLine`: the closing run starts a line's
 * content, so a container's prefix before it (`> `) is not what stands before it: a line end is.
 */
export function isInlineMath(
  source: string,
  from: number,
  to: number,
  closingStartsLine = false,
): boolean {
  let size = 0;
  while (source.charCodeAt(from + size) === DOLLAR) size++;
  const before = closingStartsLine ? NaN : source.charCodeAt(to - size - 1);
  return opensMath(size, source.charCodeAt(from + size)) &&
    closesMath(size, before, source.charCodeAt(to));
}
