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

/**
 * `count` inputs, each up to 39 of `pieces` picked at random and joined: the shape of the
 * tokenizer and scanner property tests, where a failure is found again by its seed.
 */
export function seededJoins(pieces: readonly string[], count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const next = (n: number) => Math.floor(random() * n);
  const inputs: string[] = [];
  for (let i = 0; i < count; i++) {
    let input = "";
    for (let length = next(40); length > 0; length--) input += pieces[next(pieces.length)];
    inputs.push(input);
  }
  return inputs;
}
