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

/** Where GFM may link a bare address. */
const ADDRESS_START = /www\.|https?:|mailto:|xmpp:/gi;

/** Where a bare address may start in `source`, in order. */
export function addressStarts(source: string): number[] {
  const starts: number[] = [];
  ADDRESS_START.lastIndex = 0;
  for (let match = ADDRESS_START.exec(source); match; match = ADDRESS_START.exec(source)) {
    starts.push(match.index);
  }
  return starts;
}

/** Where GFM links a bare address; the scanner reads plain domains and paths only. */
const WWW = /www\./iy;
const PROTOCOL = /https?:\/\/(?=[a-zA-Z\d-]+\.)/iy;
const OTHER_PROTOCOL = /mailto:|xmpp:|https?:\/\//iy;
const ADDRESS = /[a-zA-Z\d-]+(?:\.[a-zA-Z\d-]+)*(?:\/[a-zA-Z\d/.-]*)?/y;

/** Normalised label, as micromark compares labels. */
export function normalizeLabel(label: string): string {
  return label.replace(/[\t\n\r ]+/g, " ").trim().toLowerCase().toUpperCase();
}

/** Whether link text used as a label names a definition; declines on text micromark reads otherwise. */
export function labelDefined(definitions: ReadonlySet<string>, text: string): boolean {
  if (/[\n[\]\\]/.test(text)) throw DECLINE;
  const label = normalizeLabel(text);
  return label !== "" && definitions.has(label);
}

/**
 * The end of an inline link's `(destination "title")` from `at` (after the `(`); declines on
 * what it does not read (a line end, an unbalanced destination, a missing `)`).
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
  if (source.charCodeAt(at) !== 41 || at >= end) throw DECLINE;
  return at + 1;
}

/**
 * The end of a bare address GFM links at `at` (`www.` or `http(s)://`, then a domain and a
 * path of letters, digits, `-`, `.` and `/`), 0 where there is none: after a letter (or for
 * `www.`, after anything but white space or one of `(*_[]~`), or inside brackets not yet closed.
 * Declines on the shapes whose bounds micromark sets by finer rules: the address goes on with
 * other characters than its trailing punctuation (`?!.,:;*_~'")`) before white space, or it is
 * an e-mail or another protocol.
 */
export function literalAutolink(
  source: string,
  at: number,
  end: number,
  previous: number,
  inBrackets: boolean,
): number {
  const second = source.charCodeAt(at + 1) | 32;
  if (second !== 119 && second !== 116 && second !== 97 && second !== 109) return 0;
  let from = 0;
  let linkedAfter = (_previous: number) => false;
  WWW.lastIndex = at;
  PROTOCOL.lastIndex = at;
  if (WWW.test(source)) [from, linkedAfter] = [WWW.lastIndex, mayPrecedeWww];
  else if (PROTOCOL.test(source)) [from, linkedAfter] = [PROTOCOL.lastIndex, mayPrecedeProtocol];
  if (from === 0) {
    OTHER_PROTOCOL.lastIndex = at;
    if (OTHER_PROTOCOL.test(source)) throw DECLINE;
    return 0;
  }
  if (!linkedAfter(previous) || inBrackets) return 0;
  ADDRESS.lastIndex = from;
  if (!ADDRESS.test(source)) throw DECLINE;
  let to = Math.min(ADDRESS.lastIndex, end);
  while (source.charCodeAt(to - 1) === 46) to--; // a trailing `.` ends the sentence
  // micromark's path goes on to white space, then gives back its trailing punctuation.
  for (let after = to; after < end; after++) {
    const code = source.charCodeAt(after);
    if (code === SPACE || code === NEWLINE || code === LESS_THAN) break;
    if (!TRAILING.has(code)) throw DECLINE;
  }
  return to;
}

/** What GFM gives back from the end of an address: `!"')*,.:;?_~`. */
const TRAILING = new Set([33, 34, 39, 41, 42, 44, 46, 58, 59, 63, 95, 126]);

/** micromark's `previousWww`: a bound, white space, or one of `(*_[]~`. */
function mayPrecedeWww(code: number): boolean {
  return code !== code || code === SPACE || code === NEWLINE || code === 9 || code === 13 ||
    code === 40 || code === 42 || code === 95 || code === 91 || code === 93 || code === 126;
}

/** micromark's `previousProtocol`: anything but an ASCII letter. */
function mayPrecedeProtocol(code: number): boolean {
  return !((code >= 65 && code <= 90) || (code >= 97 && code <= 122));
}
