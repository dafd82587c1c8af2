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

/** One pattern of the given kinds, leftmost match first, the kinds in this order at a tie. */
function spanPattern(kinds: readonly string[]): RegExp {
  return new RegExp(kinds.map((part) => `(?:${part})`).join("|"), "gu");
}

const MESSAGE_SPAN = spanPattern([URL, EMAIL, MENTION, HASHTAG, SHORTCODE, EMOJI, LINE_BREAKS]);
/**
 * The same without e-mails and mentions, for a text without `@`, where neither can match: the
 * e-mail pattern starts at every letter and reads the whole word looking for an `@`, most of
 * the cost of a message.
 */
const MESSAGE_SPAN_WITHOUT_AT = spanPattern([URL, HASHTAG, SHORTCODE, EMOJI, LINE_BREAKS]);
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
  // `exec` in place, not `matchAll`, which clones the pattern on every call.
  const pattern = text.includes("@") ? MESSAGE_SPAN : MESSAGE_SPAN_WITHOUT_AT;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    let found = match[0];
    if (/^(?:https?:\/\/|www\.)/.test(found)) found = trimUrl(found);
    spans.push([match.index, match.index + found.length]);
  }
  return spans;
};

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
