/**
 * Translations a model escaped once more than JSON needs: asked for a JSON object, some small
 * models write `{"1": "Caf\\u00e9\\nLine two"}`, so the parsed text reads `Caf\u00e9\nLine two`
 * with the backslashes in it. A text with no backslash of its own has no reason to get one.
 *
 * Pure: no I/O.
 */

/** A JSON escape sequence: `\uXXXX`, or one of the short escapes (`\n`, `\"`, `\\`, …). */
const ESCAPE = /\\(?:u[0-9a-fA-F]{4}|["\\/bfnrt])/g;

/**
 * `translated` with its JSON escape sequences read as the characters they stand for, when
 * `source` holds no backslash; as it is otherwise. Half a surrogate pair becomes U+FFFD.
 *
 * @example
 * ```ts
 * unescapedTwice("Café", "Caf\\u00e9"); // "Café"
 * unescapedTwice("C:\\temp", "C:\\temp"); // "C:\\temp" (the source writes a backslash)
 * ```
 */
export function unescapedTwice(source: string, translated: string): string {
  if (source.includes("\\") || !translated.includes("\\")) return translated;
  return translated.replace(ESCAPE, (sequence) => JSON.parse(`"${sequence}"`)).toWellFormed();
}
