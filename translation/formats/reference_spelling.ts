/**
 * A changed run written back with the author's references (Markdown's and HTML's): the engine
 * reads `&copy;` as `©` (character_references.ts), and a translation that keeps the `©` was
 * written back as `©`, the same rendering in other bytes (a diff of a translated file showed
 * every one). Where the block
 * wrote a character only as references, the escaped translation writes it as the first of them
 * again; a character the block also wrote as itself is left as escaped (which one a translated
 * `©` stands for is unknown).
 *
 * A reference is never syntax, so it may stand where Markdown's escape wrote a backslash (`\*`
 * for a `*` written `&#42;`; `backslash`) or `&amp;`/`&lt;` is not needed; a reference the
 * escape wrote is kept.
 *
 * Pure: no I/O.
 */
import type { Escape } from "./placeholders.ts";

/** What may be a reference (CommonMark's: named or numeric, with its `;`). */
const REFERENCE = /&(?:#\d{1,7}|#[xX][\da-fA-F]{1,6}|[a-zA-Z][a-zA-Z\d]*);/g;
/** ...or, where the escape writes backslashes, Markdown's `\<` and `\>`, read as text. */
const REFERENCE_OR_ANGLE = /\\[<>]|&(?:#\d{1,7}|#[xX][\da-fA-F]{1,6}|[a-zA-Z][a-zA-Z\d]*);/g;
/** A reference, or a backslash escape of ASCII punctuation: written by the escape, kept. */
const WRITTEN = /&(?:#\d{1,7}|#[xX][\da-fA-F]{1,6}|[a-zA-Z][a-zA-Z\d]*);/y;
const WRITTEN_OR_BACKSLASH =
  /\\([!-/:-@[-`{-~])|&(?:#\d{1,7}|#[xX][\da-fA-F]{1,6}|[a-zA-Z][a-zA-Z\d]*);/y;

/**
 * `escape` writing the characters that the block's text parts (`written`) spell only as
 * references with those references; `escape` itself where they spell none. `backslash`: the
 * escape writes Markdown's backslash escapes.
 */
export function keepingReferences(
  escape: Escape,
  written: readonly string[],
  decode: (reference: string) => string | undefined,
  { backslash }: { backslash: boolean },
): Escape {
  // Most blocks have no reference: their characters are not collected.
  const spelt = (text: string) => text.includes("&") || (backslash && text.includes("\\"));
  if (!written.some(spelt)) return escape;
  const read = (written: string) => written[0] === "\\" ? written[1] : decode(written);
  const spelling = referenceSpelling(written, read, backslash ? REFERENCE_OR_ANGLE : REFERENCE);
  if (spelling.size === 0) return escape;
  const kept = backslash ? WRITTEN_OR_BACKSLASH : WRITTEN;
  return (text, before, after) => respell(escape(text, before, after), spelling, kept, read);
}

/** Each character written only as references in `written`, and its first reference. */
function referenceSpelling(
  written: readonly string[],
  decode: (reference: string) => string | undefined,
  pattern: RegExp,
): Map<string, string> {
  const spelling = new Map<string, string>();
  const plain = new Set<string>();
  for (const text of written) {
    if (!text.includes("&") && !text.includes("\\")) {
      for (const character of text) plain.add(character);
      continue;
    }
    let at = 0;
    for (const match of text.matchAll(pattern)) {
      for (const character of text.slice(at, match.index)) plain.add(character);
      at = match.index + match[0].length;
      const read = decode(match[0]);
      // One character only: a reference read as two (rare named ones) is left as escaped, and
      // one kept whole (read as itself: white space) never reaches the escape.
      if (read !== undefined && read !== match[0] && [...read].length === 1) {
        if (!spelling.has(read)) spelling.set(read, match[0]);
      }
    }
    for (const character of text.slice(at)) plain.add(character);
  }
  for (const character of plain) spelling.delete(character);
  return spelling;
}

/**
 * `escaped` with each character of `spelling` (bare, backslash-escaped, or as a reference the
 * escape wrote: `&lt;` for a `<` the author wrote `\<`) as the author wrote it.
 */
function respell(
  escaped: string,
  spelling: ReadonlyMap<string, string>,
  written: RegExp,
  read: (reference: string) => string | undefined,
): string {
  let output = "";
  for (let at = 0; at < escaped.length;) {
    written.lastIndex = at;
    const kept = written.exec(escaped);
    if (kept !== null) {
      const character = kept[1] ?? read(kept[0]);
      output += (character !== undefined ? spelling.get(character) : undefined) ?? kept[0];
      at = written.lastIndex;
      continue;
    }
    const character = String.fromCodePoint(escaped.codePointAt(at)!);
    output += spelling.get(character) ?? character;
    at += character.length;
  }
  return output;
}
