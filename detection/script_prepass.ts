/**
 * Unicode-script census of a text: the first, cheapest stage of language detection.
 *
 * Scripts used by exactly one language (Thai, Lao, Khmer, Myanmar, Hangul, Kana) decide the
 * language outright; Han and Latin need a second stage; other scripts go to a general detector.
 */

/** Scripts the pre-pass tells apart. */
export type Script =
  | "latin"
  | "han"
  | "kana"
  | "hangul"
  | "thai"
  | "lao"
  | "khmer"
  | "myanmar"
  | "cyrillic"
  | "greek"
  | "arabic"
  | "hebrew"
  | "indic"
  | "georgian"
  | "armenian"
  | "ethiopic"
  | "other";

/** Letter counts per script, plus the number of letters overall. */
export interface ScriptCensus {
  readonly counts: Readonly<Partial<Record<Script, number>>>;
  readonly letters: number;
  /** The script with most letters, or undefined when the text has no letters. */
  readonly dominant: Script | undefined;
}

/** Scripts that belong to exactly one of the supported languages. */
export const SINGLE_LANGUAGE_SCRIPTS: Readonly<Partial<Record<Script, string>>> = {
  thai: "th",
  lao: "lo",
  khmer: "km",
  myanmar: "my",
  hangul: "ko",
  kana: "ja",
  georgian: "ka",
  armenian: "hy",
  greek: "el",
};

// Sorted, non-overlapping [start, end, script] ranges; anything else that is a letter is "other".
const RANGES: ReadonlyArray<readonly [number, number, Script]> = [
  [0x0041, 0x005a, "latin"],
  [0x0061, 0x007a, "latin"],
  [0x00aa, 0x00aa, "latin"],
  [0x00ba, 0x00ba, "latin"],
  [0x00c0, 0x024f, "latin"],
  [0x0250, 0x02af, "latin"],
  [0x0370, 0x03ff, "greek"],
  [0x0400, 0x052f, "cyrillic"],
  [0x0530, 0x058f, "armenian"],
  [0x0590, 0x05ff, "hebrew"],
  [0x0600, 0x06ff, "arabic"],
  [0x0750, 0x077f, "arabic"],
  [0x08a0, 0x08ff, "arabic"],
  [0x0900, 0x0dff, "indic"],
  [0x0e00, 0x0e7f, "thai"],
  [0x0e80, 0x0eff, "lao"],
  [0x1000, 0x109f, "myanmar"],
  [0x10a0, 0x10ff, "georgian"],
  [0x1100, 0x11ff, "hangul"],
  [0x1200, 0x139f, "ethiopic"],
  [0x1780, 0x17ff, "khmer"],
  [0x19e0, 0x19ff, "khmer"],
  [0x1c90, 0x1cbf, "georgian"],
  [0x1e00, 0x1eff, "latin"],
  [0x1f00, 0x1fff, "greek"],
  [0x2d00, 0x2d2f, "georgian"],
  [0x2e80, 0x2fdf, "han"],
  [0x3005, 0x3007, "han"],
  [0x3021, 0x3029, "han"],
  [0x3038, 0x303b, "han"],
  [0x3041, 0x309f, "kana"],
  // U+30FB (katakana middle dot) also separates names in Chinese text, so it is not counted.
  [0x30a0, 0x30fa, "kana"],
  [0x30fc, 0x30ff, "kana"],
  [0x3130, 0x318f, "hangul"],
  [0x31f0, 0x31ff, "kana"],
  [0x3400, 0x4dbf, "han"],
  [0x4e00, 0x9fff, "han"],
  [0xa960, 0xa97f, "hangul"],
  [0xa9e0, 0xa9ff, "myanmar"],
  [0xaa60, 0xaa7f, "myanmar"],
  [0xac00, 0xd7ff, "hangul"],
  [0xf900, 0xfaff, "han"],
  [0xfb1d, 0xfb4f, "hebrew"],
  [0xfb50, 0xfdff, "arabic"],
  [0xfe70, 0xfeff, "arabic"],
  [0xff21, 0xff3a, "latin"],
  [0xff41, 0xff5a, "latin"],
  [0xff66, 0xff9f, "kana"],
  [0xffa0, 0xffdc, "hangul"],
  [0x1b000, 0x1b16f, "kana"],
  [0x20000, 0x3134f, "han"],
];

const LETTER = /\p{L}|\p{M}/u;
const MARK = /\p{M}/u;

/** The script of one code point, or undefined when it is not a letter or mark. */
export function scriptOf(codePoint: number): Script | undefined {
  let low = 0;
  let high = RANGES.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const [start, end, script] = RANGES[mid];
    if (codePoint < start) high = mid - 1;
    else if (codePoint > end) low = mid + 1;
    else return script;
  }
  if (codePoint < 0x80) return undefined;
  return LETTER.test(String.fromCodePoint(codePoint)) ? "other" : undefined;
}

/**
 * Counts the letters of each script in `text` (combining marks count with their script's range,
 * but not as letters).
 *
 * @example
 * const census = takeScriptCensus("東京タワー");
 * census.dominant; // "kana" or "han", whichever has more letters
 */
export function takeScriptCensus(text: string): ScriptCensus {
  const counts: Partial<Record<Script, number>> = {};
  let letters = 0;
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    const script = scriptOf(codePoint);
    if (script === undefined) continue;
    counts[script] = (counts[script] ?? 0) + 1;
    // A combining mark counts for its script but is no letter: marks alone are text without
    // letters (`und`), not a language.
    if (codePoint < 0x300 || !MARK.test(char)) letters++;
  }
  let dominant: Script | undefined;
  let best = 0;
  for (const [script, count] of Object.entries(counts) as [Script, number][]) {
    if (count > best) {
      best = count;
      dominant = script;
    }
  }
  return { counts, letters, dominant };
}
