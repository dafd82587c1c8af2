/**
 * Scoring a detector on a labelled set (the dev split's JSONL items), shared by the detection
 * bench and the dev-set floor test so both count the same way.
 */
import { LANGUAGE_CODES } from "../schemas/languages.ts";
import type { LanguageDetector } from "./language_detector.ts";

/** One labelled item: `{text, lang, len}` as in `tests/fixtures/eval/langid-dev.jsonl`. */
export interface LabelledItem {
  text: string;
  lang: string;
  len: "short" | "sentence" | "paragraph";
}

/** The length classes of the eval set. */
export const LENGTHS = ["short", "sentence", "paragraph"] as const;

/** Accuracy of one detector over a labelled set. */
export interface DetectorScore {
  /** Share of right answers for one language and length class (0..1). */
  accuracy(lang: string, len: string): number;
  /** Mean over the 16 languages of one length class (0..1). */
  byLength(len: string): number;
  /** Mean of the three length classes (0..1). */
  macro: number;
  /** Answers with confidence ≥ 0.9, and how many of those were right. */
  confident: number;
  confidentRight: number;
}

/** Reads a JSONL file of labelled items. */
export async function readLabelledItems(path: string | URL): Promise<LabelledItem[]> {
  const text = await Deno.readTextFile(path);
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
}

/** Runs `detector` (or its detector `name`) over `items` and scores it. */
export function scoreDetector(
  detector: LanguageDetector,
  items: readonly LabelledItem[],
  name?: string,
): DetectorScore {
  const right = new Map<string, number>();
  const total = new Map<string, number>();
  let confident = 0;
  let confidentRight = 0;
  for (const item of items) {
    const result = detector.detect(item.text, name);
    const key = `${item.lang}/${item.len}`;
    total.set(key, (total.get(key) ?? 0) + 1);
    const ok = result.language === item.lang;
    if (ok) right.set(key, (right.get(key) ?? 0) + 1);
    if (result.confidence >= 0.9) {
      confident++;
      if (ok) confidentRight++;
    }
  }
  const accuracy = (lang: string, len: string) =>
    (right.get(`${lang}/${len}`) ?? 0) / Math.max(1, total.get(`${lang}/${len}`) ?? 0);
  const byLength = (len: string) => mean(LANGUAGE_CODES.map((lang) => accuracy(lang, len)));
  const macro = mean(LENGTHS.map(byLength));
  return { accuracy, byLength, macro, confident, confidentRight };
}

/** Arithmetic mean. */
export function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}
