/**
 * Link pieces for the own Markdown scanner's inline pass (markdown_scan_inline.ts): labels as
 * micromark compares them, an inline link's `(destination "title")`, and bare addresses (GFM's
 * literal autolinks); with micromark's character classes, which bare addresses use too.
 */
import { DECLINE } from "./markdown_marked_lexer.ts";

const BACKSLASH = 92;
const NEWLINE = 10;
const SPACE = 32;
const LESS_THAN = 60;
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const PUNCTUATION = /\p{P}|\p{S}/u;
const WHITESPACE = /\s/;

/** micromark's character classes: 1 white space (or a line bound), 2 punctuation, 0 other. */
export function classify(code: number): number {
  if (code !== code || code === NEWLINE || code === SPACE) return 1; // NaN: a bound
  if (code < 128) {
    if (code <= SPACE) return WHITESPACE.test(String.fromCharCode(code)) ? 1 : 0;
    return ASCII_PUNCTUATION.test(String.fromCharCode(code)) ? 2 : 0;
  }
  const character = String.fromCharCode(code);
  if (WHITESPACE.test(character)) return 1;
  return PUNCTUATION.test(character) ? 2 : 0;
}

/** A character of an e-mail address's local part, as micromark's GFM literal autolinks read it. */
export const EMAIL_LOCAL_CHARACTER = /[\w+.-]/;
/**
 * A bare e-mail address as micromark links it: a local part of {@link EMAIL_LOCAL_CHARACTER}s and
 * a domain ending in a letter (marked also links `protobufjs@7.2.4` and `a!b@example.org`).
 */
export const MICROMARK_EMAIL = new RegExp(`^${EMAIL_LOCAL_CHARACTER.source}+@[\\w.-]*[a-z]$`, "i");

/** Normalised label, as micromark compares labels. */
export function normalizeLabel(label: string): string {
  return label.replace(/[\t\n\r ]+/g, " ").trim().toLowerCase().toUpperCase();
}

/** Whether link text used as a label (`[text]`, `[text][]`) names a definition. */
export function labelDefined(definitions: ReadonlySet<string>, text: string): boolean {
  // A definition's label holds no unescaped bracket (one inside a code span of the text too).
  if (UNESCAPED_BRACKET.test(text)) return false;
  // Text over several lines carries the prefixes of its containers (`>`, spaces) on the later
  // ones; micromark's label is the text without them, white space folded as below.
  const label = normalizeLabel(text.includes("\n") ? text.replace(/\n[ >]*/g, " ") : text);
  return label !== "" && definitions.has(label);
}

const UNESCAPED_BRACKET = /(?:^|[^\\])(?:\\\\)*[[\]]/;

/**
 * The end of an inline link's `(destination "title")` from `at` (after the `(`), or -1 where
 * what follows them is no `)` (no resource); declines on what it does not read (a line end, an
 * unbalanced destination).
 */
export function resourceEnd(source: string, at: number, end: number): number {
  const skip = () => {
    while (source.charCodeAt(at) === SPACE && at < end) at++;
  };
  skip();
  if (source.charCodeAt(at) === LESS_THAN) {
    at++;
    while (at < end) {
      const code = source.charCodeAt(at);
      if (code === 62) break;
      if (code === NEWLINE || code === LESS_THAN) throw DECLINE;
      at += code === BACKSLASH ? 2 : 1;
    }
    if (at >= end) throw DECLINE;
    at++;
  } else {
    let depth = 0;
    while (at < end) {
      const code = source.charCodeAt(at);
      if (code <= SPACE || code === 127) break;
      if (code === 40) depth++;
      else if (code === 41) {
        if (depth === 0) break;
        depth--;
      }
      at += code === BACKSLASH ? 2 : 1;
    }
    if (depth !== 0) throw DECLINE;
  }
  const beforeTitle = at;
  skip();
  const quote = source.charCodeAt(at);
  if ((quote === 34 || quote === 39 || quote === 40) && at > beforeTitle) {
    const close = quote === 40 ? 41 : quote;
    at++;
    while (at < end && source.charCodeAt(at) !== close) {
      const code = source.charCodeAt(at);
      if (code === NEWLINE || (quote === 40 && code === 40)) throw DECLINE;
      at += code === BACKSLASH ? 2 : 1;
    }
    if (at >= end) throw DECLINE;
    at++;
    skip();
  }
  // The end, or anything but white space, here ends no resource: -1, and micromark reads the
  // brackets alone.
  if (at >= end) return -1;
  const code = source.charCodeAt(at);
  if (code === 41) return at + 1;
  if (code !== NEWLINE && code !== 9 && code !== 13) return -1;
  throw DECLINE;
}
