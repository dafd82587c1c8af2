/**
 * Tells Simplified Chinese, Traditional Chinese and kanji-only Japanese apart by their characters.
 *
 * The character tables come from OpenCC's maintained conversion data (bundled in opencc-js):
 * a character that conversion to Traditional would change is Simplified-only, and so on. A few
 * Japanese-made characters (kokuji) and the iteration mark 々 are added by hand.
 */
import { from as openccFrom, to as openccTo } from "opencc-js/preset";

/** The variant a run of Han characters points to, with the evidence behind it. */
export interface HanVerdict {
  readonly language: "zh-Hans" | "zh-Hant" | "ja";
  /** Characters that point to the chosen variant minus those that point elsewhere. */
  readonly margin: number;
  /** Characters that point to any variant at all. */
  readonly marked: number;
  /** Han characters inspected. */
  readonly total: number;
  /** True when no character rules Japanese out (no Chinese-only simplification or old form). */
  readonly japaneseCompatible: boolean;
}

interface HanTables {
  readonly simplified: ReadonlySet<string>;
  readonly traditional: ReadonlySet<string>;
  readonly japanese: ReadonlySet<string>;
  /** Characters modern Japanese does not write: Chinese simplifications, replaced old forms. */
  readonly notJapanese: ReadonlySet<string>;
}

// Kokuji and marks common in Japanese and (nearly) absent from Chinese running text.
const JAPANESE_EXTRA = "々〆込畑峠働枠匂栃辻笹雫呟凧凪噺鰯麿咲搾躾榊丼";
// Shinjitai that OpenCC's Chinese tables do not list (they never change) yet are everyday
// Chinese characters too, e.g. 研究, 给予, 欠缺, 新郎.
const CHINESE_TOO = "予欠研郎瓶萌褒晃概缶糸";
// Forms Traditional text writes that OpenCC's Taiwan table does not give: Taiwan writes 台 (台灣,
// 台北) far more often than the standard 臺 (OpenCC's Hong Kong table has 臺 → 台), so 台 is
// no sign of Simplified text.
const TRADITIONAL_TOO = "台";

/** Parses an OpenCC dictionary string ("key value value|key value") into single-character pairs. */
function characterEntries(dict: unknown): Array<[string, string[]]> {
  if (typeof dict !== "string") return [];
  const entries: Array<[string, string[]]> = [];
  for (const entry of dict.split("|")) {
    const [key, ...values] = entry.split(" ");
    if ([...key].length === 1) entries.push([key, values]);
  }
  return entries;
}

/** All single-character entries of every dictionary in an OpenCC preset chain. */
function chainEntries(
  chain: readonly (readonly unknown[])[] | undefined,
): Array<[string, string[]]> {
  return (chain ?? []).flatMap((group) => group.flatMap(characterEntries));
}

function buildTables(): HanTables {
  const simplifiedToTraditional = chainEntries(openccFrom.cn);
  const traditionalToSimplified = chainEntries(openccTo.cn);
  const taiwanVariants = chainEntries(openccTo.tw);
  // OpenCC keeps some pairs only in the Traditional-to-Japanese direction (產 → 産), so both
  // directions are read as [shinjitai, kyujitai[]].
  const shinjitaiToTraditional = chainEntries(openccFrom.jp);
  for (const [kyujitai, shinjitai] of chainEntries(openccTo.jp)) {
    for (const form of shinjitai) {
      if (form !== kyujitai) shinjitaiToTraditional.push([form, [kyujitai]]);
    }
  }

  const usedInTraditional = new Set<string>();
  const usedInSimplified = new Set<string>();
  // What conversion to Traditional writes: the forms Traditional text actually uses.
  const writtenInTraditional = new Set<string>();
  for (const [key, values] of simplifiedToTraditional) {
    usedInSimplified.add(key);
    for (const value of values) {
      usedInTraditional.add(value);
      writtenInTraditional.add(value);
    }
  }
  for (const [key, values] of traditionalToSimplified) {
    usedInTraditional.add(key);
    for (const value of values) usedInSimplified.add(value);
  }
  for (const value of [...taiwanVariants.flatMap(([, values]) => values), ...TRADITIONAL_TOO]) {
    usedInTraditional.add(value);
    writtenInTraditional.add(value);
  }

  const simplified = new Set<string>();
  for (const [key, values] of simplifiedToTraditional) {
    if (!values.includes(key) && !usedInTraditional.has(key)) simplified.add(key);
  }
  const traditional = new Set<string>();
  for (const [key, values] of [...traditionalToSimplified, ...taiwanVariants]) {
    if (!values.includes(key) && !usedInSimplified.has(key)) traditional.add(key);
  }
  for (const [, values] of taiwanVariants) {
    for (const value of values) if (!usedInSimplified.has(value)) traditional.add(value);
  }
  const japanese = new Set<string>(JAPANESE_EXTRA);
  const shinjitai = new Set<string>();
  const kyujitai = new Set<string>();
  for (const [key, values] of shinjitaiToTraditional) {
    if (values.includes(key)) continue;
    shinjitai.add(key);
    for (const value of values) kyujitai.add(value);
    // OpenCC lists some shinjitai (産, 歩...) as rare Traditional variants, yet conversion to
    // Traditional never writes them, so in running text they point to Japanese.
    const chinese = usedInSimplified.has(key) || writtenInTraditional.has(key);
    if (!chinese && !CHINESE_TOO.includes(key)) {
      japanese.add(key);
      traditional.delete(key);
    }
  }
  const notJapanese = new Set<string>();
  for (const char of simplified) if (!shinjitai.has(char)) notJapanese.add(char);
  for (const char of kyujitai) if (!shinjitai.has(char)) notJapanese.add(char);
  return { simplified, traditional, japanese, notJapanese };
}

let tables: HanTables | undefined;

/** Builds the character tables once (about 10 ms) and returns them. */
function hanTables(): HanTables {
  tables ??= buildTables();
  return tables;
}

/** Forces the one-time table build, so the first detection does not pay for it. */
export function warmHanTables(): void {
  hanTables();
}

/**
 * Counts variant-specific characters of `text` and picks zh-Hans, zh-Hant or ja.
 *
 * Text with no distinguishing character is Simplified with margin 0 (the more common variant).
 *
 * @example
 * classifyHan("这个问题").language; // "zh-Hans"
 * classifyHan("這個問題").language; // "zh-Hant"
 */
export function classifyHan(text: string): HanVerdict {
  const { simplified, traditional, japanese, notJapanese } = hanTables();
  let japaneseCompatible = true;
  let simplifiedCount = 0;
  let traditionalCount = 0;
  let japaneseCount = 0;
  let total = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x2e80) continue;
    total++;
    if (notJapanese.has(char)) japaneseCompatible = false;
    if (simplified.has(char)) simplifiedCount++;
    else if (traditional.has(char)) traditionalCount++;
    else if (japanese.has(char)) japaneseCount++;
  }
  const marked = simplifiedCount + traditionalCount + japaneseCount;
  // Chinese text is written in one variant; shinjitai coincide with Simplified forms for some
  // characters (国, 装) and with Traditional ones for others (備, 類), so a mix is Japanese.
  if (japaneseCompatible && simplifiedCount > 0 && traditionalCount > 0) {
    japaneseCount += Math.min(simplifiedCount, traditionalCount);
  }
  if (japaneseCount > 0 && japaneseCount >= Math.max(simplifiedCount, traditionalCount)) {
    return {
      language: "ja",
      margin: japaneseCount - Math.max(simplifiedCount, traditionalCount),
      marked,
      total,
      japaneseCompatible,
    };
  }
  if (traditionalCount > simplifiedCount) {
    return {
      language: "zh-Hant",
      margin: traditionalCount - simplifiedCount,
      marked,
      total,
      japaneseCompatible,
    };
  }
  return {
    language: "zh-Hans",
    margin: simplifiedCount - traditionalCount,
    marked,
    total,
    japaneseCompatible,
  };
}
