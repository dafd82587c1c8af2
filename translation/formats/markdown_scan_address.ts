/**
 * Bare addresses GFM links (`www.example.org`, `https://example.org/a?b#c`) for the own
 * Markdown scanner, by the rules of micromark-extension-gfm-autolink-literal: where one may
 * start (after what, not while a bracket is open), its domain (up to punctuation other than
 * `-`, `.` and `_`, no `_` in its last two segments), its path (up to white space, parentheses
 * balanced) and the trailing punctuation it gives back (`.`, `,`, `)`, `&amp;`...); and e-mail
 * addresses. Other protocols (`mailto:`, `xmpp:`) are left to micromark.
 */
import { DECLINE } from "./markdown_marked_lexer.ts";
import { classify } from "./markdown_scan_links.ts";

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

const WWW = /www\./iy;
const PROTOCOL = /https?:\/\//iy;
const OTHER_PROTOCOL = /mailto:|xmpp:/iy;
/** Characters of an e-mail address's local part up to its `@`. */
const EMAIL_AHEAD = /[\w+.-]+@/y;

/**
 * The end of the bare address linked at `at` (where {@link addressStarts} found one), or 0
 * where micromark links none; `previous` is the character before (NaN at a line's start),
 * `inBrackets` whether a `[` is open.
 *
 * @throws DECLINE on `mailto:` and `xmpp:`, and on characters outside the Basic Multilingual
 * Plane in an address (micromark classes them by code point).
 */
export function literalAutolink(
  source: string,
  at: number,
  end: number,
  previous: number,
  inBrackets: boolean,
): number {
  // micromark tries an e-mail address first (`www.example.org@host.org`): left to it.
  EMAIL_AHEAD.lastIndex = at;
  if (EMAIL_AHEAD.test(source)) throw DECLINE;
  WWW.lastIndex = at;
  PROTOCOL.lastIndex = at;
  if (WWW.test(source)) {
    if (inBrackets || !mayPrecedeWww(previous)) return 0;
    if (WWW.lastIndex >= end) {
      // micromark links `www` before a space it sees after the end of a paragraph (not of a
      // heading or a cell): left to it.
      const after = source.charCodeAt(WWW.lastIndex);
      if (after === 32 || after === 9) throw DECLINE;
      return 0;
    }
    return addressEnd(source, at, end); // `www.` is the domain's first segment
  }
  if (PROTOCOL.test(source)) {
    const domain = PROTOCOL.lastIndex;
    if (inBrackets || !mayPrecedeProtocol(previous) || domain >= end) return 0;
    const first = source.charCodeAt(domain);
    if (classify(first) !== 0 || first < 32 || first === 127) return 0;
    return addressEnd(source, domain, end);
  }
  OTHER_PROTOCOL.lastIndex = at;
  if (OTHER_PROTOCOL.test(source)) throw DECLINE;
  return 0;
}

/** micromark's `previousWww`: a bound, white space, or one of `(*_[]~`. */
function mayPrecedeWww(code: number): boolean {
  return code !== code || code === 32 || code === 10 || code === 9 || code === 13 ||
    code === 40 || code === 42 || code === 95 || code === 91 || code === 93 || code === 126;
}

/** micromark's `previousProtocol`: anything but an ASCII letter. */
function mayPrecedeProtocol(code: number): boolean {
  return !((code >= 65 && code <= 90) || (code >= 97 && code <= 122));
}

const HYPHEN = 45;
const DOT = 46;
const UNDERSCORE = 95;
const OPEN_PAREN = 40;
const CLOSE_PAREN = 41;

/** Where micromark's path checks for a trail: `!"&')*,.:;<?]_~`. */
const TRAIL_START = new Set([33, 34, 38, 39, 41, 42, 44, 46, 58, 59, 60, 63, 93, 95, 126]);
/** Trail characters taken one by one: `!"')*,.:;?_~`. */
const TRAIL = new Set([33, 34, 39, 41, 42, 44, 46, 58, 59, 63, 95, 126]);

/**
 * The end of the domain and path from `from`, or 0 where the domain is none (empty, or `_` in
 * its last two segments).
 */
function addressEnd(source: string, from: number, end: number): number {
  const trail = new TrailCheck(source, end);
  let at = from;
  let seen = false;
  let underscoreInLast = false;
  let underscoreInLastButOne = false;
  for (; at < end; at++) {
    const code = source.charCodeAt(at);
    if (code === DOT || code === UNDERSCORE) {
      if (trail.endsAt(at)) break;
      if (code === UNDERSCORE) underscoreInLast = true;
      else [underscoreInLastButOne, underscoreInLast] = [underscoreInLast, false];
      continue;
    }
    const kind = characterClass(code);
    if (kind === 1 || (kind === 2 && code !== HYPHEN)) break;
    seen = true;
  }
  if (!seen || underscoreInLast || underscoreInLastButOne) return 0;
  let opened = 0;
  let closed = 0;
  for (; at < end; at++) {
    const code = source.charCodeAt(at);
    if (code === OPEN_PAREN) opened++;
    else if (code === CLOSE_PAREN && closed < opened) closed++;
    else if (TRAIL_START.has(code)) {
      if (trail.endsAt(at)) break;
      if (code === CLOSE_PAREN) closed++;
    } else if (characterClass(code) === 1) break;
  }
  return at;
}

/** micromark's class of a character, declining on a surrogate (it reads code points). */
function characterClass(code: number): number {
  if (code >= 0xd800 && code <= 0xdfff) throw DECLINE;
  return classify(code);
}

/**
 * micromark's trail check: whether the address ends at a position, the rest of it to white
 * space (or `<`, or the end) being trailing punctuation: the characters of {@link TRAIL},
 * character references (`&amp;`), and `]` before white space, `(` or `[`. A check that fails at
 * a character fails from every position before it in the same run, so those are not walked
 * again (the walk would be the square of a run of punctuation).
 */
class TrailCheck {
  /** Checks from positions below this fail. */
  #failsBefore = -1;

  constructor(readonly source: string, readonly end: number) {}

  endsAt(at: number): boolean {
    if (at < this.#failsBefore) return false;
    const source = this.source;
    let i = at;
    for (;;) {
      if (i >= this.end) return true;
      const code = source.charCodeAt(i);
      if (TRAIL.has(code)) {
        i++;
      } else if (code === 38) { // `&`: a character reference, `&` letters `;`
        i++;
        if (!isAsciiLetter(source.charCodeAt(i)) || i >= this.end) break;
        while (isAsciiLetter(source.charCodeAt(i)) && i < this.end) i++;
        if (source.charCodeAt(i) !== 59 || i >= this.end) break;
        i++;
      } else if (code === 93) { // `]`
        i++;
        const next = source.charCodeAt(i);
        if (i >= this.end || next === OPEN_PAREN || next === 91 || characterClass(next) === 1) {
          return true;
        }
      } else if (code === 60 || characterClass(code) === 1) {
        return true;
      } else break;
    }
    this.#failsBefore = i;
    return false;
  }
}

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/**
 * The [start, end) of the e-mail address GFM links around the `@` at `at`, or undefined: the
 * letters, digits and `+-._` right before it, back to the line's start or the end of the address
 * before (`from`), and not after another of them or a `/`, then a domain of letters, digits, `-`
 * and `_` with a `.` inside and a letter last. Declines where an escape (`\_`) may start or cut
 * the local part.
 */
export function emailAddress(
  source: string,
  at: number,
  end: number,
  from: { lineStart: number; addressEnd: number },
  inBrackets: boolean,
): { start: number; end: number } | undefined {
  if (inBrackets) return undefined;
  const limit = Math.max(from.lineStart, from.addressEnd);
  let start = at;
  while (start > limit && isEmailLocal(source.charCodeAt(start - 1))) {
    start--;
    if (source.charCodeAt(start - 1) === BACKSLASH && start > limit) throw DECLINE;
  }
  const previous = start > from.lineStart ? source.charCodeAt(start - 1) : NaN;
  if (start === at || previous === SLASH || isEmailLocal(previous)) return undefined;
  let to = at + 1;
  let data = false;
  let dot = false;
  for (; to < end; to++) {
    const code = source.charCodeAt(to);
    if (code === DOT) {
      // A `.` not followed by a letter or digit ends the address (it ends the sentence).
      if (to + 1 >= end || !isAsciiAlphanumeric(source.charCodeAt(to + 1))) break;
      dot = true;
    } else if (code === HYPHEN || code === UNDERSCORE || isAsciiAlphanumeric(code)) data = true;
    else break;
  }
  if (!data || !dot || !isAsciiLetter(source.charCodeAt(to - 1))) return undefined;
  return { start, end: to };
}

const SLASH = 47;
const BACKSLASH = 92;

/** micromark's `gfmAtext`: a letter, a digit or one of `+-._`. */
function isEmailLocal(code: number): boolean {
  return code === 43 || code === HYPHEN || code === DOT || code === UNDERSCORE ||
    isAsciiAlphanumeric(code);
}

function isAsciiAlphanumeric(code: number): boolean {
  return isAsciiLetter(code) || (code >= 48 && code <= 57);
}
