/**
 * Column headings on the first row of a glossary file. DeepL's CSV and TSV have none, but a sheet
 * written by hand, or exported from a term base (Google's glossaries, Phrase, memoQ), names its
 * columns on the first row; read as an entry, "source" had to become "target" in every text.
 */

/** Headings of the source column, lower case. */
const SOURCE_HEADINGS = new Set(["source", "source term", "source text", "term"]);

/** Headings of the target column, lower case. */
const TARGET_HEADINGS = new Set(["target", "target term", "target text", "translation"]);

/**
 * Whether the first row's two fields are column headings rather than an entry: `source`/`term`
 * and `target`/`translation` (any case), or the dictionary's own source and target languages in
 * this order, as `isPair` reads them (`en,de`, `EN-US,DE-DE`). Only the first row with text is
 * asked: further down, such a row is an entry like any other.
 *
 * @example
 * ```ts
 * isHeadingRow(["Term", "Translation"]); // true
 * isHeadingRow(["en", "de"], (s, t) => s === "en" && t === "de"); // true
 * ```
 */
export function isHeadingRow(
  [source, target]: readonly string[],
  isPair?: (source: string, target: string) => boolean,
): boolean {
  const [s, t] = [source.trim(), target.trim()];
  if (SOURCE_HEADINGS.has(s.toLowerCase()) && TARGET_HEADINGS.has(t.toLowerCase())) return true;
  return isPair?.(s, t) ?? false;
}
