/**
 * The item policy of a translation request, in one place: which language each item is read in
 * (canonical codes, detected on the visible text of a marked-up item), which items come back
 * without model work (same language, no letters, blank text, or only a change of Chinese
 * script), what of an item goes to an engine (its format's segments: outer whitespace cut off
 * and restored, markup as placeholders), and which alternatives a result keeps (distinct, at
 * most 3).
 *
 * Engines receive only non-empty pieces, each with a canonical source code; they never decide
 * any of this again.
 */
import type { Detection } from "../detection/language_detector.ts";
import {
  type ChineseScript,
  isChineseScriptChange,
  toChineseScript,
} from "../engines/builtin/script_conversion.ts";
import { isLanguageCode, type LanguageCode } from "../schemas/languages.ts";
import {
  MAX_ALTERNATIVES,
  type TranslateOptions,
  type TranslationFormat,
} from "../schemas/translation.ts";
import { type CutItem, DEFAULT_TAG_OPTIONS, type TagOptions } from "./formats/format.ts";
import { FORMATS } from "./formats/formats.ts";
import { subtitleFileCut } from "./formats/text.ts";
import { detectionText } from "./detection_reading.ts";
import type { TranslatedCut } from "./segment_translation.ts";

/** How one item is served. */
export type ItemRoute =
  /** Comes back as it was: already in the target language, no letters, or blank. */
  | "unchanged"
  /** Only the Chinese script changes (zh-Hans ↔ zh-Hant): a table lookup, not model work. */
  | "script"
  /** Its pieces go to an engine. */
  | "engine";

/** One item with its route. */
export interface PlannedItem {
  text: string;
  detected: Detection;
  /** The canonical language the item is read in. */
  source: string;
  route: ItemRoute;
  /**
   * For the `engine` and `script` routes (and an `unchanged` item whose cut fills in its source):
   * the segments and how to put the item back together.
   */
  cut?: CutItem;
}

/** The request fields the item policy reads. */
export interface PlanRequest {
  /** An explicit source language; undefined (or `auto`) detects each item. */
  source?: string;
  target: LanguageCode;
  /** `options.preserve_formatting`: every line is its own piece. */
  preserveFormatting: boolean;
  /** The request's `format` (default text). */
  format?: TranslationFormat;
  /** The request's `mode` (default paragraph). */
  mode?: string;
  /** The request's tag options (html and xml); absent: the formats' defaults. */
  tags?: TagOptions;
}

/**
 * Decides the route of every item.
 *
 * @example
 * ```ts
 * const planned = planItems(["Hello", "Bonjour"], (text) => detector.detect(text), {
 *   target: "fr", preserveFormatting: false,
 * });
 * planned[1].route; // "unchanged"
 * ```
 */
export function planItems(
  texts: readonly string[],
  detect: (text: string) => Detection,
  request: PlanRequest,
): PlannedItem[] {
  const explicit = request.source && request.source !== "auto" ? request.source : undefined;
  const format = request.format ?? "text";
  const options = {
    mode: request.mode ?? "paragraph",
    preserveFormatting: request.preserveFormatting,
    tags: request.tags,
    target: request.target,
  };
  return texts.map((text) => {
    // A whole subtitle file is one in every format: a client may send a WebVTT file as html or
    // xml (its cue text is markup), and its indices and timings must never reach an engine.
    const file = options.mode === "subtitle" ? subtitleFileCut(text, options) : undefined;
    const cut = file ?? FORMATS[format].cut(text, options);
    const detected = detect(detectionText(text, format, { ...options, cut }));
    const source = canonicalLanguage(explicit ?? detected.language);
    const item = { text, detected, source };
    // A cut that fills in a copy of its source (an XLIFF file's targets) is kept to be filled.
    const unchanged = { ...item, route: "unchanged" as const, cut: cut.filled ? cut : undefined };
    if (source === request.target || (!explicit && detected.language === "und")) return unchanged;
    if (isChineseScriptChange(source, request.target)) return { ...item, route: "script", cut };
    if (!cut.segments.some((segment) => segment.translatable)) return unchanged;
    return { ...item, route: "engine", cut };
  });
}

/** The tag options a request names, as the formats read them; undefined when it names none. */
export function tagOptions(options: TranslateOptions): TagOptions | undefined {
  const { ignore_tags, splitting_tags, non_splitting_tags, outline_detection } = options;
  if (!ignore_tags && !splitting_tags && !non_splitting_tags && outline_detection === undefined) {
    return undefined;
  }
  return {
    ignore: new Set(ignore_tags),
    splitting: new Set(splitting_tags),
    nonSplitting: new Set(non_splitting_tags),
    outlineDetection: outline_detection ?? DEFAULT_TAG_OPTIONS.outlineDetection,
  };
}

/** One item's result, before the response adds its index and detected language. */
export interface ItemResult {
  text: string;
  confidence: number;
  alternatives: string[];
}

/**
 * Puts every item back together: `translated` holds one translation per `engine` item, in
 * order (the segments already assembled, see segment_translation.ts).
 */
export function finishItems(
  planned: readonly PlannedItem[],
  target: LanguageCode,
  translated: readonly TranslatedCut[],
): ItemResult[] {
  let next = 0;
  return planned.map((item): ItemResult => {
    const unchanged = { text: item.text, confidence: item.detected.confidence, alternatives: [] };
    if (item.route === "unchanged") {
      return item.cut ? { ...unchanged, text: rewriteRuns(item.cut, (run) => run) } : unchanged;
    }
    if (item.route === "script") {
      const script = target as ChineseScript;
      return { ...unchanged, text: rewriteRuns(item.cut!, (run) => toChineseScript(run, script)) };
    }
    const own = translated[next++];
    return {
      text: own.text,
      confidence: clamp01(own.confidence ?? item.detected.confidence),
      alternatives: keepAlternatives(own.text, own.alternatives),
    };
  });
}

/**
 * The item assembled with the text runs of its translatable segments rewritten (into the other
 * Chinese script; or kept, for a cut that fills in its source). Markup, code, addresses,
 * mentions and a subtitle file's notes are kept byte for byte, as the format keeps them.
 */
function rewriteRuns(cut: CutItem, rewrite: (run: string) => string): string {
  return cut.assemble(cut.segments.map((segment) => {
    const runs = segment.translatable ? segment.runs.map(rewrite) : [];
    return (render) => segment.fromRuns(runs, render);
  }));
}

/** The alternatives a result keeps: distinct, not blank, not the text itself, at most 3. */
export function keepAlternatives(text: string, candidates: readonly string[]): string[] {
  const kept = new Set<string>();
  for (const candidate of candidates) {
    if (candidate.trim() === "" || candidate === text) continue;
    kept.add(candidate);
    if (kept.size === MAX_ALTERNATIVES) break;
  }
  return [...kept];
}

const CHINESE_REGIONS: Readonly<Record<string, ChineseScript>> = {
  "zh": "zh-Hans",
  "zh-cn": "zh-Hans",
  "zh-sg": "zh-Hans",
  "zh-my": "zh-Hans",
  "zh-tw": "zh-Hant",
  "zh-hk": "zh-Hant",
  "zh-mo": "zh-Hant",
};

/**
 * Canonical form of a BCP 47 code: Chinese region tags become a script, `tl` is `fil`, the rest
 * keeps its case-folded primary subtag (`fr-CA` → `fr`); codes of the 16 stay as they are.
 */
export function canonicalLanguage(code: string): string {
  if (isLanguageCode(code)) return code;
  const lower = code.toLowerCase();
  if (lower in CHINESE_REGIONS) return CHINESE_REGIONS[lower];
  if (lower.startsWith("zh-hant")) return "zh-Hant";
  if (lower.startsWith("zh-hans")) return "zh-Hans";
  const primary = lower.split(/[-_]/)[0];
  if (primary === "tl") return "fil";
  return primary;
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, Number.isFinite(value) ? value : 0));
}
