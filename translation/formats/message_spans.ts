/**
 * The spans of a chat message that come back byte for byte in `message` mode: URLs (with a
 * scheme or `www.`, and bare domains in lower case such as `example.com/docs`), e-mail
 * addresses, `@mentions` (`@org/team` whole), `#hashtags` (`#dev-ops` whole), emoji and
 * `:shortcodes:`, code in backticks, the markup chat apps put in a message's text (Slack's
 * `<#C024BE7LR|general>`, `<@U123>`, `<!here>`; Discord's `<:name:123>`, `<t:1618953630:R>`;
 * of a link only its label is translated), and its line breaks (a message keeps its lines). They become placeholders, so every engine
 * keeps them.
 */
import { matchedSpans, type SpanFinder } from "./placeholders.ts";

const URL = String.raw`(?:(?:https?|s?ftp|ssh|git|file):\/\/|www\.|mailto:)[^\s<>"]+`;
/**
 * Code as chat apps show it (Slack, Discord, GitHub, Teams): a fenced block, possibly over many
 * lines, or an inline span on one line. A command or a name in it must not be translated.
 */
const CODE = "```[^`][\\s\\S]*?```|``[^`\\n][^\\n]*?``|`[^`\\n]+`";
const CJK = String.raw`\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}`;
/**
 * A local part may be written in CJK (用户@例子.广告), but a CJK letter right before ASCII is the
 * text the address is glued to (`请发邮件test@x.com`), as no space parts them.
 */
const LOCAL_PART = String.raw`(?:(?![${CJK}])[\p{L}\p{N}._%+-]|[${CJK}](?![A-Za-z0-9._%+-]))+`;
const EMAIL = String.raw`${LOCAL_PART}@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+`;
/** A handle: letters, digits and `_`, with `.` and `-` inside. */
const ANY_HANDLE = String.raw`[\p{L}\p{N}_](?:[\p{L}\p{N}_.-]*[\p{L}\p{N}_])?`;
const NOT_CJK = `(?![${CJK}])`;
/** A handle that starts outside CJK ends before a CJK letter: the text it is glued to (`@ana你好`). */
const NON_CJK_HANDLE = String
  .raw`${NOT_CJK}[\p{L}\p{N}_](?:(?:${NOT_CJK}[\p{L}\p{N}_.-])*${NOT_CJK}[\p{L}\p{N}_])?`;
const HANDLE = `(?:${NON_CJK_HANDLE}|${ANY_HANDLE})`;
/** A mention, a GitHub team's (`@octo-org/core-team`) and an npm scope's (`@types/node`) whole. */
const MENTION = String.raw`(?<![\p{L}\p{N}_@.])@${HANDLE}(?:\/${HANDLE})?`;
const HASHTAG = String
  .raw`(?<![\p{L}\p{N}_&#])#[\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*(?:-[\p{L}\p{N}_]+)*`;
/**
 * A bare domain: lower-case labels and a top-level domain, a port and a path after it. Upper
 * case is left out: `Hello.World` is a typo, not an address.
 */
const DOMAIN_START = String.raw`(?<![\p{L}\p{N}_@.\/-])`;
const LABEL = String.raw`(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)`;
const TLD_END = String.raw`(?![\p{L}\p{N}_@-])`;
const PORT_PATH = String.raw`(?::\d{1,5})?(?:[\/?#][^\s<>"]*)?`;
/**
 * A top-level domain seen alone (`example.de`): common generic ones and country codes that are
 * no short word in the service's languages. Any other two letters (`so`, `it`, `no`, `me`...)
 * count only with a path or port after them or three labels (`done.so` is a missing space).
 */
const KNOWN_TLD = "com|org|net|edu|gov|info|biz|dev|app|xyz|online|site|tech|cloud|blog|io|ai|" +
  "co|tv|ly|cc|gg|fm|eu|uk|fr|de|jp|cn|ru|nl|br|au|ca|ch|pl|vn|th|kr|tw|hk|sg|nz|za|mx|ar|cl|" +
  "dk|fi|cz|pt|gr|ie|tr|ua|ro|hu|ph|sk|lt|lv|ee|kh|la|mm";
const DOMAIN = DOMAIN_START + "(?:" + [
  String.raw`${LABEL}+(?:${KNOWN_TLD})${TLD_END}${PORT_PATH}`,
  String.raw`${LABEL}{2,}[a-z]{2}${TLD_END}${PORT_PATH}`,
  String.raw`${LABEL}+[a-z]{2}${TLD_END}(?::\d{1,5}|[\/?#])[^\s<>"]*`,
].join("|") + ")";
/** Chat apps' markup in a message's text: Slack's and Discord's `<…>` references. */
const CHAT_MARKUP = String.raw`<(?:[@#]|a?:[\w~]+:|t:\d|(?:https?|mailto):)[^<>\s]*` +
  String.raw`(?:\|[^<>\n]*)?>|<!(?!--)[^<>\n]*>|<\/[\w-]+(?: [\w-]+){0,2}:\d+>`;
/**
 * Shortcodes side by side are one span (`:thumbsup::skin-tone-2:`, Slack's skin tone;
 * `:tada::tada:`): none starts right after a colon, so the second was left to the engine.
 */
const SHORTCODE = String
  .raw`(?<![\p{L}\p{N}:])(?::[a-z0-9_+-]*[a-z_+-][a-z0-9_+-]*:)+(?![\p{L}\p{N}])`;
/**
 * `:shortcodes:` alone, for formats that render them outside message mode (GitHub's Markdown):
 * the same rule, so a shortcode reads the same in both.
 */
export const shortcodeSpans: SpanFinder = matchedSpans(new RegExp(SHORTCODE, "gu"));
// A flag (two regional indicators), a keycap, or pictographs joined by ZWJ with their
// variation selectors, skin tones and tag sequences (the flags of Scotland or Wales: 🏴 and tags).
const PICTOGRAPH = String
  .raw`\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier}|[\u{E0020}-\u{E007E}]+\u{E007F})?`;
const EMOJI = String.raw`\p{Regional_Indicator}{2}|[#*0-9]\uFE0F?\u20E3|` +
  String.raw`${PICTOGRAPH}(?:\u200D${PICTOGRAPH})*`;

const LINE_BREAKS = String.raw`[ \t]*(?:\r?\n[ \t]*)+`;

/**
 * Every kind in one pattern, the kinds in this order when two match at one offset. It is tried
 * (sticky) only where a span can start: searched over the whole text it tried every kind at every
 * character, 12–20 µs a message, most of the cost of `message` mode.
 */
export const MESSAGE_SPAN = new RegExp(
  [CODE, URL, EMAIL, MENTION, HASHTAG, SHORTCODE, EMOJI, CHAT_MARKUP, DOMAIN, LINE_BREAKS]
    .map((part) => `(?:${part})`)
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
 * Where a URL in running CJK text ends, as no space ends it there (`访问https://x.org/docs了解更多`):
 * at CJK or full-width punctuation or an ellipsis, or at a CJK letter right after an ASCII letter
 * or digit. A CJK path or domain (`https://例え.jp/パス`, `/wiki/東京`) starts after `/`, `.`, `=`.
 */
const URL_END_IN_CJK = new RegExp(
  String.raw`[\u2026\u3000-\u303f\uff00-\uff65]|(?<=[A-Za-z0-9])[${CJK}]`,
  "u",
);
const NON_ASCII = /\P{ASCII}/u;
/** A CJK letter, which no space parts from a Latin address in running text (`邮件test@x.com`). */
const CJK_LETTER = new RegExp(`[${CJK}]`, "uy");

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
    offset = addSpan(spans, offset, match[0]);
    if (at < end) at = -1;
  }
  return spans;
};

/** An address at a span's start: a URL, an e-mail address, a bare domain, or Slack's `<URL|…>`. */
const ADDRESS = new RegExp(`<?(?:${URL}|${EMAIL}|${DOMAIN})`, "uy");

/**
 * The spans of `text` that are addresses (URLs, e-mail addresses, bare domains), found as
 * `message` mode finds them, as [start, end) offsets.
 *
 * @example
 * ```ts
 * addressSpans("ping @ana: see https://x.org/a."); // [[15, 30]]
 * ```
 */
export const addressSpans: SpanFinder = (text) =>
  messageSpans(text).filter(([start]) => {
    ADDRESS.lastIndex = start;
    return ADDRESS.test(text);
  });

/**
 * A link's address and the markup around its label (Slack's `<https://x.org|the report>`): the
 * label is what a reader sees, so it is translated, its own spans kept.
 */
const LABELLED_LINK = /^<(?:https?|mailto):[^|]*\|(?=[^>]*\p{L})/u;

/**
 * Adds the span `found` at `offset`: whole, or a labelled link's markup around its label. Gives
 * where the search goes on: after what was kept (a URL cut short in CJK text leaves the rest to
 * be searched). Exported for the test that compares the scan with a whole-text search.
 */
export function addSpan(spans: [number, number][], offset: number, found: string): number {
  const head = LABELLED_LINK.exec(found)?.[0].length;
  if (head === undefined) {
    const end = offset + spanLength(found);
    spans.push([offset, end]);
    return end;
  }
  spans.push([offset, offset + head]);
  for (const [start, end] of messageSpans(found.slice(head, -1))) {
    spans.push([offset + head + start, offset + head + end]);
  }
  spans.push([offset + found.length - 1, offset + found.length]);
  return offset + found.length;
}

/** Whether a span other than an e-mail or blanks can start at `offset` (a superset). */
function mayStartSpan(text: string, offset: number, code: number): boolean {
  if (code < 0x80) {
    switch (code) {
      case 0x40: // @
      case 0x23: // #
      case 0x3a: // :
      case 0x3c: // <
      case 0x60: // `
      case 0x0a:
      case 0x0d:
        return true;
      case 0x68: // h
        if (text.startsWith("http", offset)) return true;
        break;
      case 0x66: // f
        if (text.startsWith("ftp://", offset) || text.startsWith("file://", offset)) return true;
        break;
      case 0x73: // s
        if (text.startsWith("sftp://", offset) || text.startsWith("ssh://", offset)) return true;
        break;
      case 0x67: // g
        if (text.startsWith("git://", offset)) return true;
        break;
      case 0x77: // w
        if (text.startsWith("www.", offset)) return true;
        break;
      case 0x6d: // m
        if (text.startsWith("mailto:", offset)) return true;
        break;
    }
    if (code === 0x2a || (code >= 0x30 && code <= 0x39)) { // a keycap: * or a digit
      const next = text.charCodeAt(offset + 1);
      if (next === 0xfe0f || next === 0x20e3) return true;
    }
    return mayStartDomain(text, offset, code);
  }
  // Astral pictographs and regional indicators are at U+1F000–U+1FFFF (high surrogates
  // D83C–D83F); the BMP's pictographs from © (U+00A9) to ㊙ (U+3299).
  if (code >= 0xd83c && code <= 0xd83f) return true;
  if (code < 0xa9 || code > 0x3299) return false;
  BMP_PICTOGRAPH.lastIndex = offset;
  return BMP_PICTOGRAPH.test(text);
}

/**
 * Whether a bare domain can start at `offset`: a lower-case letter or digit at the start of a
 * word whose first label is followed by a dot. Each word is looked at once, from its start.
 */
function mayStartDomain(text: string, offset: number, code: number): boolean {
  if (!isLabelStart(code) || (offset > 0 && isBeforeDomain(text.charCodeAt(offset - 1)))) {
    return false;
  }
  let at = offset + 1;
  while (at < text.length && isLabel(text.charCodeAt(at))) at++;
  return text.charCodeAt(at) === 0x2e;
}

/** `[a-z0-9]`. */
function isLabelStart(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39);
}

/** `[a-z0-9-]`. */
function isLabel(code: number): boolean {
  return isLabelStart(code) || code === 0x2d;
}

/** What may not stand before a domain (its lookbehind's ASCII; other letters fail it there). */
function isBeforeDomain(code: number): boolean {
  return isLabel(code) || (code >= 0x41 && code <= 0x5a) || code === 0x5f || code === 0x40 ||
    code === 0x2e || code === 0x2f;
}

/**
 * Where an e-mail whose `@` is at `at` would start, not before `from`: the first offset of the
 * run of local-part characters before the `@` (`at` itself when there is none). A CJK letter
 * right before ASCII ends the run: `请发邮件test@x.com` is text, then an address (the domain's
 * end is cut the same way, by {@link spanLength}).
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
    CJK_LETTER.lastIndex = previous;
    if (start < at && text.charCodeAt(start) < 0x80 && CJK_LETTER.test(text)) break;
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

/** A span's length as kept: a URL (or a bare domain's path) without its sentence punctuation. */
function spanLength(found: string): number {
  if (!isLabelStart(found.charCodeAt(0))) return found.length;
  const cut = NON_ASCII.test(found) ? URL_END_IN_CJK.exec(found) : null;
  const url = cut ? found.slice(0, cut.index) : found;
  return URL_TAIL.test(url) ? trimUrl(url).length : url.length;
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
