/**
 * Whether a text carries any word of a language: the gate in front of every detector.
 *
 * DECISIONS makes text without letters `und` at confidence 0. Letters alone are not evidence
 * either: "12 kg", "v2.1", "HTTP 404" or "OK" are written alike in every language, and the
 * n-gram models still named one for them (de, en, vi...) at confidence near 0, so `source: auto`
 * sent them to an engine that rewrote them. The rule, per whitespace-separated token; a text is
 * `und` when none of its tokens is a word:
 *
 * - a URL, bare domain, e-mail address or @handle is no word;
 * - nor a token without letters (numbers, emoji, punctuation);
 * - nor a token whose letters are alphabetic (Latin, Greek, Cyrillic) and that holds a digit:
 *   quantities, versions and model numbers (12kg, v2.1, 3x, COVID-19, m²);
 * - nor a unit symbol or international abbreviation of {@link NEUTRAL_TOKENS}, alone or joined
 *   by "/" (km/h, TCP/IP).
 *
 * Other single letters stay words: "a", "à", "y" and "o" are words of some languages (the dev
 * split has five such short items, two detected right), and "说" or "ສ" name their language.
 * Digits beside letters of other scripts stay words too: "3人", "2026年" are Japanese or Chinese.
 */

/**
 * Unit symbols, currency codes and technical abbreviations that every supported language writes
 * the same way. Case matters ("ms" is milliseconds, "MS" is not listed); words of a language that
 * double as units ("in", "mi", "ha") are left out, since they are evidence in running text.
 */
const NEUTRAL_TOKENS: ReadonlySet<string> = new Set(
  (
    // Units (SI and common) and data sizes; "x" as in 3 x 4 m.
    "x m g l L s h t C F K W V J N B mm cm dm km nm µm mg kg ml cl dl µl ms µs ns min Hz kHz MHz GHz kW MW GW kWh Wh mV kV mA " +
    "mAh kJ kcal kPa hPa psi mol dB px pt dpi fps bps kbps Mbps Gbps KB kB MB GB TB PB KiB MiB " +
    "GiB TiB mph rpm oz lb lbs yd pH " +
    // Currency codes of the service's region and the majors.
    "USD EUR GBP JPY CNY RMB KRW IDR MYR SGD VND THB PHP LAK KHR MMK HKD TWD AUD CAD CHF " +
    // Technical abbreviations.
    "OK Ok ok O.K HTTP HTTPS URL URI API JSON XML HTML CSS PDF PNG JPG JPEG GIF SVG CSV ZIP " +
    "USB CPU GPU RAM SSD HDD LED LCD GPS SMS PIN ID IP TCP UDP DNS SSH FTP SQL VPN WiFi Wi-Fi " +
    "FAQ iOS UI UX QR NFC DVD HD"
  ).split(" "),
);

const URL_LIKE =
  /^(?:[a-z][a-z0-9+.-]*:\/\/\S+|www\.\S+|[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.[a-z]{2,6}(?:[/?#]\S*)?)$/iu;
const EMAIL_OR_HANDLE = /^(?:(?:mailto:)?[^\s@]+@[^\s@]+\.[^\s@]+|@[\p{L}\p{N}_.]+)$/u;
/** Sentence punctuation around a token: stripped before the address checks. */
const OUTER_PUNCTUATION = /^[("'«“‘[{<]+|[)"'»”’\]}>.,;:!?]+$/gu;
const OUTER_SYMBOLS = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;
const TOKEN = /\S+/gu;
const LETTER = /\p{L}/u;
const NUMBER = /\p{N}/u;
const ALPHABETIC_ONLY =
  /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{N}\p{P}\p{S}\p{M}]+$/u;

/** Whether one whitespace-separated token is a word of some language. */
function isWord(token: string): boolean {
  const bare = token.replace(OUTER_PUNCTUATION, "");
  if (URL_LIKE.test(bare) || EMAIL_OR_HANDLE.test(bare)) return false;
  const core = token.replace(OUTER_SYMBOLS, "");
  if (!LETTER.test(core)) return false;
  if (NUMBER.test(core) && ALPHABETIC_ONLY.test(core)) return false;
  return !core.split("/").every((part) => NEUTRAL_TOKENS.has(part) || !LETTER.test(part));
}

/**
 * Whether `text` has at least one word of a language; when it has none, detection answers `und`
 * at confidence 0. Stops at the first word, so running text costs one token.
 *
 * @example
 * hasLanguageEvidence("12 kg"); // false
 * hasLanguageEvidence("12 kg de farine"); // true
 */
export function hasLanguageEvidence(text: string): boolean {
  for (const [token] of text.matchAll(TOKEN)) {
    if (isWord(token)) return true;
  }
  return false;
}
