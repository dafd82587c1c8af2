/**
 * Markdown's side of translated text: how a character reference reads (CommonMark's: a named
 * HTML5 one with its `;`, or a numeric one), and how a run the engine changed is written back
 * so that it stays text inside its block. An engine's answer is words, never syntax: a line
 * break it adds would end the paragraph, heading or table row, `|` would add a table column,
 * `[`/`]` could make a link, `*`, `_`, `~`, `` ` `` and `$` emphasis, strikethrough, code or
 * math, `<` a tag and `&` a reference; a `#`, `>`, `-`, `+` or `1.` at the start a new block.
 * Each is written so that it renders as itself (a backslash escape, `&lt;`, `&amp;`); runs the
 * engine left alone are put back as written (placeholders.ts).
 *
 * Pure: no I/O.
 */
import { decodeHTMLStrict } from "entities/decode";

/** CommonMark's references: HTML5's named ones with `;`, and numeric ones. */
export function decodeMarkdownReference(reference: string): string | undefined {
  return decodeHTMLStrict(reference);
}

/** White space holding line breaks: one space in its place. */
const LINE_BREAK = /(?:[ \t]*(?:\r\n?|\n))+[ \t]*/g;
/** Punctuation that is syntax wherever it stands; `_` only where it can open or close. */
const SYNTAX = /[\\`*[\]|~$]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;
const REFERENCE_LIKE = /&(?=#\d{1,7};|#[xX][\da-fA-F]{1,6};|[a-zA-Z][a-zA-Z\d]*;)/g;
const TAG_LIKE = /<(?=[a-zA-Z/!?])/g;
/** A block marker at the start: a heading, a quote, a list item, a setext underline. */
const BLOCK_START = /^(?:[#>+=-]|\d{1,9}[.)])(?=[ \t]|$)/;

/**
 * Writes a run the engine changed as inline text: in an ATX heading or a table cell, where a
 * leading `1.` or `-` starts no block (a numbered heading keeps its `1.` as written).
 */
export function escapeMarkdownInline(text: string): string {
  return text.replace(LINE_BREAK, " ").replace(SYNTAX, "\\$&")
    .replace(REFERENCE_LIKE, "&amp;").replace(TAG_LIKE, "&lt;");
}

/** Writes a run the engine changed as text of a paragraph, whose start could start a block. */
export function escapeMarkdown(text: string): string {
  const escaped = escapeMarkdownInline(text);
  const marker = BLOCK_START.exec(escaped);
  if (marker === null) return escaped;
  // `1.` becomes `1\.`; `#`, `>`, `-`, `+`, `=` get their backslash before them.
  const at = marker[0].length - 1;
  return escaped.slice(0, at) + "\\" + escaped.slice(at);
}
