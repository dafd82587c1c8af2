/**
 * Decides among the Latin-script languages of the service (en, vi, id, ms, fil, fr, de, es).
 *
 * eld scores the candidates; it has no Indonesian, so its "ms" stands for the Malay group. cld3
 * gives a second opinion on the group for text of 40+ letters (on fragments it only hurt), and
 * the Indonesian/Malay split uses cld3 together with hand-written spelling and vocabulary markers. A language outside the candidates wins only when
 * both libraries agree on it and cld3 is confident.
 */
import type { StatisticalDetectors } from "./statistical_detectors.ts";
import { countMalayEvidence } from "./malay_markers.ts";

/** A Latin-script decision with the evidence the calibration needs. */
export interface LatinVerdict {
  readonly language: string;
  /** Winner's combined score minus the runner-up's, roughly 0..1.5. */
  readonly margin: number;
  /** True when the decision had to split Indonesian from Malay. */
  readonly malaySplit: boolean;
  /** Margin of the Indonesian/Malay split (0 when not split). */
  readonly splitMargin: number;
}

// eld spells Tagalog "tl"; cld3 spells Filipino "fil". A Map, not an object: cld3's codes are
// fresh strings on every call, and an object read with them kept V8 in a loop of optimising
// decideLatin and throwing the code away ("unexpected name in keyed access", about twelve times
// a second under load).
const GROUP_OF: ReadonlyMap<string, string> = new Map([
  ["en", "en"],
  ["vi", "vi"],
  ["ms", "malay"],
  ["id", "malay"],
  ["tl", "fil"],
  ["fil", "fil"],
  ["fr", "fr"],
  ["de", "de"],
  ["es", "es"],
]);

/** Tuned on the dev split (see BENCHMARKS.md): weight of cld3's vote against eld's scores. */
const CLD3_WEIGHT = 0.3;
/** Below this many letters cld3's group vote is left out: on 1-3 words it cost accuracy. */
const CLD3_MIN_LETTERS = 40;
/** Letters only Vietnamese writes (horned, breved, barred and dot-below vowels). */
const VIETNAMESE_LETTERS = /[ơưđăạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/giu;

/** Below this many letters no language outside the candidates is reported. */
const FOREIGN_MIN_LETTERS = 20;
/** Tuned on the dev split: weight of cld3's id/ms vote against one marker word. */
const CLD3_SPLIT_WEIGHT = 1;
/**
 * On fragments (fewer than CLD3_MIN_LETTERS letters) a marker word outweighs cld3's id/ms vote,
 * which there is near chance: one marker at weight 1 lost to a confident cld3 vote plus the bias.
 */
const SHORT_MARKER_WEIGHT = 2;
/** Without evidence either way, lean to Indonesian, by far the more widely written standard. */
const SPLIT_BIAS = -0.25;
/** cld3 probability above which a language outside the candidates may win. */
const FOREIGN_MIN_PROBABILITY = 0.9;

/**
 * Picks the Latin-script language of `text`.
 *
 * @example
 * decideLatin(detectors, "Ceci est une phrase.").language; // "fr"
 */
export function decideLatin(detectors: StatisticalDetectors, text: string): LatinVerdict {
  const eldGuesses = detectors.eldScores(text);
  // cld3 (wasm) is most of a detection's cost, and short text that eld places outside the Malay
  // group never reads its answer: ask it only where a rule below does (same answers, less work).
  let cld3Guess: ReturnType<StatisticalDetectors["cld3"]> | undefined;
  const cld3 = () => cld3Guess ??= detectors.cld3(text);

  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const foreign = letters >= FOREIGN_MIN_LETTERS ? foreignLanguage(eldGuesses, cld3) : undefined;
  if (foreign !== undefined) {
    return { language: foreign, margin: cld3().score, malaySplit: false, splitMargin: 0 };
  }

  const groupScores = new Map<string, number>();
  for (const guess of eldGuesses) {
    const group = GROUP_OF.get(guess.language);
    if (group === undefined) continue;
    groupScores.set(group, Math.max(groupScores.get(group) ?? 0, guess.score));
  }
  // When eld knows none of the n-grams (an unusual word), cld3's guess is better than nothing.
  if (letters >= CLD3_MIN_LETTERS || groupScores.size === 0) {
    const { language, score } = cld3();
    const cld3Group = GROUP_OF.get(language);
    if (cld3Group !== undefined) {
      groupScores.set(cld3Group, (groupScores.get(cld3Group) ?? 0) + CLD3_WEIGHT * score);
    }
  }
  // eld barely knows single Vietnamese words, so Vietnamese-only letters add weight; scaled by
  // their share so one name such as "Chişinău" in French prose does not flip it.
  const vietnamese = text.match(VIETNAMESE_LETTERS)?.length ?? 0;
  if (vietnamese > 0) {
    const bonus = Math.min(1, (10 * vietnamese) / Math.max(1, letters));
    groupScores.set("vi", (groupScores.get("vi") ?? 0) + bonus);
  }
  const ranked = [...groupScores.entries()].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0) return { language: "en", margin: 0, malaySplit: false, splitMargin: 0 };
  const [group, best] = ranked[0];
  const margin = best - (ranked[1]?.[1] ?? 0);
  if (group !== "malay") return { language: group, margin, malaySplit: false, splitMargin: 0 };

  const evidence = countMalayEvidence(text);
  const { language, score } = cld3();
  const cld3Vote = language === "ms" ? score : language === "id" ? -score : 0;
  const markers = evidence.malay - evidence.indonesian;
  const markerWeight = letters < CLD3_MIN_LETTERS ? SHORT_MARKER_WEIGHT : 1;
  const split = markerWeight * markers + CLD3_SPLIT_WEIGHT * cld3Vote + SPLIT_BIAS;
  return {
    language: split > 0 ? "ms" : "id",
    margin,
    malaySplit: true,
    splitMargin: Math.abs(split),
  };
}

/** A non-candidate language both libraries agree on, or undefined. */
function foreignLanguage(
  eldGuesses: ReadonlyArray<{ language: string; score: number }>,
  cld3: () => { language: string; score: number; reliable: boolean },
): string | undefined {
  // Agreement needs eld's top to be a non-candidate too: when it is not, cld3 is not asked.
  const eldTop = eldGuesses[0]?.language;
  if (eldTop === undefined || GROUP_OF.has(eldTop) || eldTop === "und") return undefined;
  const { language, score, reliable } = cld3();
  if (!reliable || score < FOREIGN_MIN_PROBABILITY) return undefined;
  return eldTop === language ? language : undefined;
}
