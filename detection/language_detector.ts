/**
 * The one language detector used by /detect, /translate and the WebSocket.
 *
 * Pipeline of the default detector ("ensemble"): a Unicode-script census decides the
 * single-language scripts (Thai, Lao, Khmer, Myanmar, Hangul, Kana); Han-only text is split into
 * zh-Hans, zh-Hant or ja by OpenCC character tables; Latin text goes to eld and cld3 restricted to
 * the Latin languages of the service, with hand-written Indonesian/Malay markers; other scripts
 * (Cyrillic, Arabic, Devanagari...) get the libraries' own answer. See BENCHMARKS.md.
 */
import { type Script, SINGLE_LANGUAGE_SCRIPTS, takeScriptCensus } from "./script_prepass.ts";
import { classifyHan, warmHanTables } from "./han_variants.ts";
import { malayLexicon } from "./malay_lexicon.ts";
import { decideLatin } from "./latin_detection.ts";
import { commonWordsLanguage } from "./common_words.ts";
import { hasLanguageEvidence } from "./language_evidence.ts";
import { readableText } from "./readable_text.ts";
import { loadStatisticalDetectors, type StatisticalDetectors } from "./statistical_detectors.ts";
import {
  commonWordsConfidence,
  foreignConfidence,
  hanConfidence,
  kanjiConfidence,
  latinConfidence,
  scriptConfidence,
} from "./calibration.ts";

/**
 * A detection: a BCP 47 code ("und" when the text has no word of a language, see
 * language_evidence.ts) and a confidence in 0..1.
 */
export interface Detection {
  language: string;
  confidence: number;
}

/** A synchronous language detector with several selectable strategies. */
export interface LanguageDetector {
  /** Detector names selectable by /detect options.engine; the first is the default and best. */
  readonly names: readonly string[];
  readonly defaultName: string;
  /** Synchronous, fast. name defaults to defaultName. Throws UnknownDetectorError for an unknown name. */
  detect(text: string, name?: string): Detection;
}

/** Thrown by `detect` when asked for a detector name it does not have. */
export class UnknownDetectorError extends Error {
  /** The unknown name. */
  readonly detectorName: string;

  /** @param detectorName the name that was asked for. */
  constructor(detectorName: string) {
    super(`Cannot detect with "${detectorName}" as no detector has that name`);
    this.name = "UnknownDetectorError";
    this.detectorName = detectorName;
  }
}

/**
 * Names of the detectors, default first:
 * - `ensemble`: script pre-pass + Han tables + eld and cld3 restricted to our Latin languages,
 *   with Indonesian/Malay markers and calibrated confidence (the best; the default).
 * - `cld3`: cld3-asm's own answer for the whole text, confidence = its probability.
 * - `eld`: eld's own answer for the whole text, confidence = its score.
 * The raw detectors only map codes to the service's spelling (tl → fil, zh → zh-Hans/zh-Hant by
 * the Han character tables). Every detector answers `und` for text without a word of a language.
 */
export const DETECTOR_NAMES = ["ensemble", "cld3", "eld"] as const;

/** Code points looked at; longer input is cut so each call costs a bounded amount of work. */
const SAMPLE_CODE_POINTS = 1000;

// How much one letter of a script weighs when scripts are mixed: a Han or Hangul character
// carries about as much as a short Latin word, so a few Latin words do not outvote them.
const SCRIPT_WEIGHT: Readonly<Partial<Record<Script, number>>> = {
  latin: 0.25,
  han: 1,
  kana: 1,
  hangul: 1,
};
/**
 * Beside another script a Latin word weighs at least this much, however short: by letters alone
 * "I love" (1.25) lost to the two characters of 寿司, and a short Han run outvoted the English
 * sentence around it. Two Latin words outweigh a two-character Chinese word (I love 寿司 is
 * English) but not three Hangul syllables (Apple Watch 샀어요 stays Korean; at 1.5 it tied).
 */
const LATIN_WORD_WEIGHT = 1.25;
const LATIN_WORD = /\p{Script=Latin}+(?:['’-]\p{Script=Latin}+)*/gu;

/** The first SAMPLE_CODE_POINTS code points of `text`, cut without splitting a surrogate pair. */
function sample(text: string): string {
  if (text.length <= SAMPLE_CODE_POINTS) return text;
  let end = SAMPLE_CODE_POINTS;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end++;
  return text.slice(0, end);
}

/** Writing systems after merging scripts that form one language's text. */
type Block = Script | "ja-mixed" | "ko-mixed";

function weighOf(script: Script): number {
  return SCRIPT_WEIGHT[script] ?? 0.5;
}

/** The weight of the Latin letters of a text written in several scripts. */
function latinWeight(text: string, letters: number): number {
  const words = text.match(LATIN_WORD)?.length ?? 0;
  return Math.max(letters * weighOf("latin"), words * LATIN_WORD_WEIGHT);
}

/** The dominant writing system and its share of the weighted letters. */
function dominantBlock(
  text: string,
  counts: Partial<Record<Script, number>>,
): { block: Block; share: number } {
  const entries = Object.entries(counts) as [Script, number][];
  const weighted = new Map<Block, number>();
  let total = 0;
  for (const [script, count] of entries) {
    const weight = script === "latin" && entries.length > 1
      ? latinWeight(text, count)
      : count * weighOf(script);
    total += weight;
    weighted.set(script, weight);
  }
  // Japanese mixes kana with kanji, Korean sometimes adds hanja: count Han with them.
  const han = weighted.get("han") ?? 0;
  if (han > 0 && (weighted.get("kana") ?? 0) > 0) {
    weighted.set("ja-mixed", han + weighted.get("kana")!);
    weighted.delete("han");
    weighted.delete("kana");
  } else if (han > 0 && (weighted.get("hangul") ?? 0) > 0) {
    weighted.set("ko-mixed", han + weighted.get("hangul")!);
    weighted.delete("han");
    weighted.delete("hangul");
  }
  let block: Block = "other";
  let best = -1;
  for (const [candidate, weight] of weighted) {
    if (weight > best) {
      best = weight;
      block = candidate;
    }
  }
  return { block, share: total > 0 ? best / total : 0 };
}

/** Maps a library's code to the service's spelling. */
function serviceCode(code: string, text: string): string {
  if (code === "tl") return "fil";
  if (code === "zh") return classifyHan(text).language === "zh-Hant" ? "zh-Hant" : "zh-Hans";
  return code;
}

function createEnsemble(detectors: StatisticalDetectors) {
  return function detectEnsemble(text: string): Detection {
    const census = takeScriptCensus(text);
    const { block, share } = dominantBlock(text, census.counts);
    const letters = census.counts[block as Script] ?? census.letters;

    if (block === "ja-mixed") {
      return { language: "ja", confidence: scriptConfidence(letters, share) };
    }
    if (block === "ko-mixed") {
      return { language: "ko", confidence: scriptConfidence(letters, share) };
    }
    const single = SINGLE_LANGUAGE_SCRIPTS[block];
    if (single !== undefined) {
      return { language: single, confidence: scriptConfidence(letters, share) };
    }
    if (block === "han") return detectHan(detectors, text, share);
    if (block === "latin") {
      const common = commonWordsLanguage(text);
      if (common !== undefined) {
        return {
          language: common.language,
          confidence: commonWordsConfidence(share, common.shared),
        };
      }
      const latin = decideLatin(detectors, text);
      const split = latin.malaySplit ? latin.splitMargin : undefined;
      return {
        language: latin.language,
        confidence: latinConfidence(latin.margin, letters, split, share),
      };
    }
    return detectForeign(detectors, text);
  };
}

/** Minimum lead of eld's Japanese score over its Chinese score to call Han-only text Japanese. */
const KANJI_JAPANESE_LEAD = 0.01;
/** Japanese prose longer than this always has kana, so longer Han-only text is Chinese. */
const KANJI_ONLY_MAX_CHARACTERS = 12;

/**
 * Han-only text: the character tables pick the variant; text that no character rules out as
 * Japanese is Japanese when eld's n-grams (which know Japanese kanji words) clearly prefer it.
 */
function detectHan(detectors: StatisticalDetectors, text: string, share: number): Detection {
  const han = classifyHan(text);
  // One character is no Japanese word; it stays with the character tables.
  const kanjiOnlyCandidate = han.japaneseCompatible && han.total >= 2 &&
    han.total <= KANJI_ONLY_MAX_CHARACTERS;
  if (han.language !== "ja" && kanjiOnlyCandidate) {
    const scores = detectors.eldScores(text);
    const japanese = scores.find((guess) => guess.language === "ja")?.score ?? 0;
    const chinese = scores.find((guess) => guess.language === "zh")?.score ?? 0;
    const lead = japanese - chinese;
    if (lead > KANJI_JAPANESE_LEAD) {
      return { language: "ja", confidence: kanjiConfidence(lead, han.total, share) };
    }
  }
  return { language: han.language, confidence: hanConfidence(han.margin, han.total, share) };
}

/** Other scripts: both libraries' answers, preferring agreement, then cld3 when reliable. */
function detectForeign(detectors: StatisticalDetectors, text: string): Detection {
  const cld3 = detectors.cld3(text);
  const eldTop = detectors.eldScores(text)[0];
  if (eldTop !== undefined && eldTop.language === cld3.language) {
    return {
      language: serviceCode(cld3.language, text),
      confidence: foreignConfidence(cld3.score, true),
    };
  }
  if (cld3.reliable && cld3.language !== "und") {
    return {
      language: serviceCode(cld3.language, text),
      confidence: foreignConfidence(cld3.score, false),
    };
  }
  if (eldTop !== undefined) {
    return {
      language: serviceCode(eldTop.language, text),
      confidence: foreignConfidence(eldTop.score, false),
    };
  }
  return { language: "und", confidence: 0 };
}

function createRawCld3(detectors: StatisticalDetectors) {
  return function detectCld3(text: string): Detection {
    const result = detectors.cld3(text);
    if (result.language === "und") return { language: "und", confidence: 0 };
    return { language: serviceCode(result.language, text), confidence: result.score };
  };
}

function createRawEld(detectors: StatisticalDetectors) {
  return function detectEld(text: string): Detection {
    const top = detectors.eldScores(text)[0];
    if (top === undefined) return { language: "und", confidence: 0 };
    return { language: serviceCode(top.language, text), confidence: Math.min(1, top.score) };
  };
}

async function buildDetector(): Promise<LanguageDetector> {
  const detectors = await loadStatisticalDetectors();
  warmHanTables();
  malayLexicon();
  const strategies: Record<string, (text: string) => Detection> = {
    ensemble: createEnsemble(detectors),
    cld3: createRawCld3(detectors),
    eld: createRawEld(detectors),
  };
  // One warm-up call per strategy so the first real request does not pay for JIT and lazy setup.
  for (const strategy of Object.values(strategies)) strategy("warm up the detector");
  return {
    names: DETECTOR_NAMES,
    defaultName: DETECTOR_NAMES[0],
    detect(text: string, name: string = DETECTOR_NAMES[0]): Detection {
      const strategy = Object.hasOwn(strategies, name) ? strategies[name] : undefined;
      if (strategy === undefined) throw new UnknownDetectorError(name);
      const readable = readableText(sample(text));
      if (!hasLanguageEvidence(readable)) return { language: "und", confidence: 0 };
      return strategy(readable);
    },
  };
}

let loading: Promise<LanguageDetector> | undefined;

/**
 * Loads wasm/data once (cld3-asm needs async init) and returns the shared detector.
 *
 * Repeated calls return the same promise. A failed load is not cached, so a later call retries.
 *
 * @throws {Error} when cld3's WebAssembly cannot be loaded.
 * @example
 * const detector = await loadLanguageDetector();
 * detector.detect("Selamat pagi, apa khabar?"); // { language: "ms", confidence: ... }
 */
export function loadLanguageDetector(): Promise<LanguageDetector> {
  loading ??= buildDetector().catch((error) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
