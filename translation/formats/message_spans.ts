/**
 * The spans of a chat message that come back byte for byte in `message` mode: URLs, e-mail
 * addresses, `@mentions`, `#hashtags`, emoji and `:shortcodes:`, and its line breaks (a message
 * keeps its lines). They become placeholders, so every engine keeps them.
 */
import type { SpanFinder } from "./placeholders.ts";

const URL = String.raw`(?:https?:\/\/|www\.)[^\s<>"]+`;
const EMAIL = String.raw`[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+`;
const MENTION = String.raw`(?<![\p{L}\p{N}_@.])@[\p{L}\p{N}_](?:[\p{L}\p{N}_.-]*[\p{L}\p{N}_])?`;
const HASHTAG = String.raw`(?<![\p{L}\p{N}_&#])#[\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*`;
const SHORTCODE = String.raw`(?<![\p{L}\p{N}:]):[a-z0-9_+-]*[a-z_+][a-z0-9_+-]*:(?![\p{L}\p{N}])`;
// A flag (two regional indicators), a keycap, or pictographs joined by ZWJ with their
// variation selectors and skin tones.
const PICTOGRAPH = String.raw`\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?`;
const EMOJI = String.raw`\p{Regional_Indicator}{2}|[#*0-9]\uFE0F?\u20E3|` +
  String.raw`${PICTOGRAPH}(?:\u200D${PICTOGRAPH})*`;

const LINE_BREAKS = String.raw`[ \t]*(?:\r?\n[ \t]*)+`;

/**
 * Every kind in one pattern, the kinds in this order when two match at one offset. It is tried
 * (sticky) only where a span can start: searched over the whole text it tried every kind at every
 * character, 12–20 µs a message, most of the cost of `message` mode.
 */
export const MESSAGE_SPAN = new RegExp(
  [URL, EMAIL, MENTION, HASHTAG, SHORTCODE, EMOJI, LINE_BREAKS].map((part) => `(?:${part})`)
    .join("|"),
  "uy",
);
/** An e-mail's local part beyond ASCII: a letter or a number. */
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/uy;
/** A pictograph in the Basic Multilingual Plane (the others sit at U+1F000 and above). */
const BMP_PICTOGRAPH = /\p{Extended_Pictographic}/uy;
/** Punctuation that ends a sentence after a URL rather than belonging to it. */
const URL_TAIL = /[.,;:!?'"»)\]}]+$/;

/**
 * The protected spans of a message, as [start, end) offsets.
 *
 * @example
 * ```ts
 * messageSpans("ping @ana: see https://x.org/a."); // [[5, 9], [15, 30]]
 * ```
 */
export const messageSpans: SpanFinder = (text) => {
  const spans: [number, number][] = [];
  const end = text.length;
  // The next `@` at or after `at`'s last look (`end` when none), and where an e-mail ending at it
  // could start: the e-mail kind needs no other offset, as its local part runs up to the `@`.
  let at = text.includes("@") ? -1 : end;
  let emailStart = end;
  let offset = 0;
  while (offset < end) {
    if (offset > at) {
      at = text.indexOf("@", offset);
      if (at < 0) at = end;
      emailStart = localPartStart(text, at, offset);
    }
    const code = text.charCodeAt(offset);
    if (code === 0x20 || code === 0x09) {
      // Blanks start a span only when a line break follows them.
      let next = offset + 1;
      while (next < end && (text.charCodeAt(next) === 0x20 || text.charCodeAt(next) === 0x09)) {
        next++;
      }
      const after = text.charCodeAt(next);
      if (after !== 0x0a && after !== 0x0d) {
        offset = next;
        continue;
      }
    } else if (offset !== emailStart && !mayStartSpan(text, offset, code)) {
      offset++;
      continue;
    }
    MESSAGE_SPAN.lastIndex = offset;
    const match = MESSAGE_SPAN.exec(text);
    if (match === null) {
      offset++;
      continue;
    }
    spans.push([offset, offset + spanLength(match[0])]);
    offset = MESSAGE_SPAN.lastIndex;
    if (at < end) at = -1;
  }
  return spans;
};

/** Whether a span other than an e-mail or blanks can start at `offset` (a superset). */
function mayStartSpan(text: string, offset: number, code: number): boolean {
  if (code < 0x80) {
    switch (code) {
      case 0x40: // @
      case 0x23: // #
      case 0x3a: // :
      case 0x0a:
      case 0x0d:
        return true;
      case 0x68: // h
        return text.startsWith("http", offset);
      case 0x77: // w
        return text.startsWith("www.", offset);
    }
    if (code === 0x2a || (code >= 0x30 && code <= 0x39)) { // a keycap: * or a digit
      const next = text.charCodeAt(offset + 1);
      return next === 0xfe0f || next === 0x20e3;
    }
    return false;
  }
  // Astral pictographs and regional indicators are at U+1F000–U+1FFFF (high surrogates
  // D83C–D83F); the BMP's pictographs from © (U+00A9) to ㊙ (U+3299).
  if (code >= 0xd83c && code <= 0xd83f) return true;
  if (code < 0xa9 || code > 0x3299) return false;
  BMP_PICTOGRAPH.lastIndex = offset;
  return BMP_PICTOGRAPH.test(text);
}

/**
 * Where an e-mail whose `@` is at `at` would start, not before `from`: the first offset of the
 * run of local-part characters before the `@` (`at` itself when there is none).
 */
function localPartStart(text: string, at: number, from: number): number {
  let start = at;
  while (start > from) {
    const code = text.charCodeAt(start - 1);
    if (code < 0x80) {
      if (!isLocalPartAscii(code)) break;
      start--;
      continue;
    }
    const pair = code >= 0xdc00 && code <= 0xdfff && start - 2 >= from &&
      isHighSurrogate(text.charCodeAt(start - 2));
    const previous = pair ? start - 2 : start - 1;
    if (!pair && code >= 0xdc00 && code <= 0xdfff) break;
    LETTER_OR_NUMBER.lastIndex = previous;
    if (!LETTER_OR_NUMBER.test(text)) break;
    start = previous;
  }
  return start;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** `[A-Za-z0-9._%+-]`: the local part's ASCII. */
function isLocalPartAscii(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) || code === 0x2e || code === 0x5f || code === 0x25 ||
    code === 0x2b || code === 0x2d;
}

/** A span's length as kept: a URL without its sentence punctuation. */
export function spanLength(found: string): number {
  const code = found.charCodeAt(0);
  if ((code !== 0x68 && code !== 0x77) || !/^(?:https?:\/\/|www\.)/.test(found)) {
    return found.length;
  }
  return trimUrl(found).length;
}

/** Drops sentence punctuation after a URL, keeping a closing bracket that has its opening. */
function trimUrl(url: string): string {
  let trimmed = url.replace(URL_TAIL, "");
  const tail = url.slice(trimmed.length);
  if (tail.startsWith(")") && count(trimmed, "(") > count(trimmed, ")")) trimmed += ")";
  return trimmed;
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}
