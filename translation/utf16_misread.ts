/**
 * Texts that are UTF-16 files a client read as UTF-8 or Latin-1: each ASCII character comes
 * with a U+0000 beside it (after it in UTF-16LE, before it in UTF-16BE), and the byte-order
 * mark reads as `��`, `ÿþ` or `þÿ`. Such a text reaches every reader (a subtitle file's, the
 * detector, an engine) as one garbled block; the service refuses it and names the encoding.
 *
 * Pure: no I/O.
 */

/** NULs at least, and at least this share of the code units: no text written to be read has. */
const MIN_NULS = 8;
const MIN_NUL_SHARE = 1 / 4;
/** A UTF-16 byte-order mark read one byte a character, as UTF-8 or as Latin-1. */
const MISREAD_BOM = /^(?:\uFFFD\uFFFD|\u00FF\u00FE|\u00FE\u00FF)/;

/**
 * `UTF-16LE` or `UTF-16BE` when `text` reads as a UTF-16 file decoded one byte a character,
 * else undefined.
 *
 * @example
 * ```ts
 * utf16Misread("1\0\n\x000\x000\0:\0"); // "UTF-16LE"
 * utf16Misread("Hello\0world"); // undefined
 * ```
 */
export function utf16Misread(text: string): "UTF-16LE" | "UTF-16BE" | undefined {
  let nuls = 0;
  for (let at = text.indexOf("\0"); at !== -1; at = text.indexOf("\0", at + 1)) nuls++;
  if (nuls < MIN_NULS || nuls < text.length * MIN_NUL_SHARE) return undefined;
  // The first character after the mark: a NUL before the first letter is big-endian's.
  return text.replace(MISREAD_BOM, "").startsWith("\0") ? "UTF-16BE" : "UTF-16LE";
}
