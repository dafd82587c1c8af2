/**
 * Turns the evidence behind a decision into a `confidence` in 0..1.
 *
 * The shapes are hand-chosen and monotone (more letters, a larger margin, a purer script all raise
 * confidence); their constants were tuned on the dev split so that answers at 0.9 or above are
 * right at least 98% of the time there (see BENCHMARKS.md).
 */

/** Clamps to 0..1 and rounds to 4 decimals, so responses stay short and stable. */
function unit(value: number): number {
  const clamped = Math.min(1, Math.max(0, value));
  return Math.round(clamped * 10_000) / 10_000;
}

/** Saturating curve: 0 at 0, one half at x = scale, approaching 1. */
function saturate(x: number, scale: number): number {
  return x <= 0 ? 0 : x / (x + scale);
}

/**
 * Confidence for a language read off a single-language script (Thai, Hangul, Kana...).
 *
 * @param letters letters of that script in the text.
 * @param share that script's share of all (weighted) letters, 0..1.
 */
export function scriptConfidence(letters: number, share: number): number {
  return unit((0.9 + 0.1 * saturate(letters, 1)) * Math.pow(share, 1.5));
}

/**
 * Confidence for the Han variant decision.
 *
 * @param margin variant-specific characters for the winner minus those against it.
 * @param total Han characters seen.
 * @param share Han's share of all (weighted) letters, 0..1.
 */
export function hanConfidence(margin: number, total: number, share: number): number {
  if (margin <= 0) return unit(0.5 * saturate(total, 4) * share);
  return unit((0.85 + 0.15 * saturate(margin, 1)) * saturate(total, 0.5) * Math.pow(share, 1.5));
}

/**
 * Confidence for kanji-only text called Japanese on eld's n-grams: never high, since the same
 * characters are often Chinese too.
 *
 * @param lead eld's Japanese score minus its Chinese score.
 * @param total Han characters seen.
 * @param share Han's share of all (weighted) letters, 0..1.
 */
export function kanjiConfidence(lead: number, total: number, share: number): number {
  return unit(0.6 * saturate(lead, 0.05) * saturate(total, 2) * share);
}

/**
 * Confidence for a Latin-script decision.
 *
 * @param margin winner's combined score minus the runner-up's.
 * @param letters Latin letters in the text.
 * @param splitMargin strength of the Indonesian/Malay split, or undefined when there was none.
 * @param share Latin's share of all (weighted) letters, 0..1.
 */
export function latinConfidence(
  margin: number,
  letters: number,
  splitMargin: number | undefined,
  share: number,
): number {
  let confidence = saturate(margin, 0.08) * saturate(letters, 12);
  if (splitMargin !== undefined) confidence *= saturate(splitMargin, 1.2);
  return unit(confidence * 1.15 * Math.pow(share, 1.5));
}

/**
 * Confidence for a short text whose every word is a common word of one language only
 * (common_words.ts): high, but under the 0.9 where answers have always been right on the dev
 * split, as a name or a loan word can still be of another language; half that for words
 * Indonesian and Malay share.
 */
export function commonWordsConfidence(share: number, shared: boolean): number {
  // Words Malay writes as well leave Indonesian a lean, not a finding.
  return unit((shared ? 0.4 : 0.8) * Math.pow(share, 1.5));
}

/**
 * Confidence for a language outside the service's 16, from the library's own probability.
 *
 * @param probability the library's probability or score for its answer.
 * @param agreed whether both libraries named the same language.
 */
export function foreignConfidence(probability: number, agreed: boolean): number {
  return unit(probability * (agreed ? 0.95 : 0.6));
}
