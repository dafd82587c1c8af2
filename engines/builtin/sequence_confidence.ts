/**
 * Sequence confidence from token log-probabilities: pure arithmetic, kept apart from the
 * generation code so the engine can use it without loading transformers.js.
 */

/** Log-probability sum and count of scored tokens of one generated row (or piece). */
export interface ScoredRow {
  logProb: number;
  scored: number;
}

/** The geometric mean of token probabilities over rows' scores, or null when nothing was scored. */
export function sequenceConfidence(parts: readonly ScoredRow[]) {
  const scored = parts.reduce((sum, part) => sum + part.scored, 0);
  if (scored === 0) return null;
  const mean = parts.reduce((sum, part) => sum + part.logProb, 0) / scored;
  return Math.min(1, Math.max(0, Math.exp(mean)));
}
