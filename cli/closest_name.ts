/**
 * The name a user most likely meant by a word the command line does not know (`--prot` →
 * `port`), as git and cargo answer a slip of the keyboard.
 */

/**
 * The one of `names` closest to `word` by edits (a swap of two neighbouring letters is one, case
 * is none), when it is close enough to be a slip: at most two edits and fewer than half the
 * word's letters, so a short word (`n`) is never "corrected" into an unrelated flag (`q`).
 *
 * @example
 * ```ts
 * closestName("prot", ["host", "port"]); // "port"
 * closestName("verbose", ["host", "port"]); // undefined
 * ```
 */
export function closestName(word: string, names: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(word.toLowerCase(), name.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  if (best === undefined || best.distance > 2 || best.distance * 2 >= word.length) {
    return undefined;
  }
  return best.name;
}

/** Optimal string alignment distance: Levenshtein plus adjacent transpositions. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => {
    const row = new Array<number>(b.length + 1).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
      }
    }
  }
  return rows[a.length][b.length];
}

/**
 * ` (did you mean serve?)` when `word` is a slip of one of `names` ({@link closestName}), with
 * `prefix` before the name (`--` for a flag); "" for no word or none close.
 *
 * @example
 * ```ts
 * `unknown flag${didYouMean("prot", ["host", "port"], "--")}`; // unknown flag (did you mean --port?)
 * ```
 */
export function didYouMean(
  word: string | undefined,
  names: Iterable<string>,
  prefix = "",
): string {
  const meant = word === undefined ? undefined : closestName(word, names);
  return meant === undefined ? "" : ` (did you mean ${prefix}${meant}?)`;
}
