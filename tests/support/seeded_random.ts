/**
 * One seeded generator for the fuzzers and property tests: the same seed gives the same run, so a
 * failure is reproduced by its seed.
 */

/**
 * mulberry32: a small, fast, seeded generator of floats in [0, 1).
 *
 * @example
 * ```ts
 * const random = seededRandom(1);
 * random(); // the same value on every run
 * ```
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
