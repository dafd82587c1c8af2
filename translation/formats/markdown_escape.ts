/**
 * Markdown's side of translated text: how a character reference reads (CommonMark's: a named
 * HTML5 one with its `;`, or a numeric one), and how a run the engine changed is written back
 * so that it stays text inside its block. An engine's answer is words, never syntax: a line
 * break it adds would end the paragraph, heading or table row, `|` would add a table column,
 * `[`/`]` could make a link, `*`, `_`, `~` and `` ` `` emphasis, strikethrough or code, a `$`
 * that could pair math (markdown_math_dollars.ts: not a price's `$5`, nor `US$ 10`), `<` a tag
 * and `&` a reference; a `#`, `>`, `-`, `+` or `1.` at the start a new block.
 * Each is written so that it renders as itself (a backslash escape, `&lt;`, `&amp;`); runs the
 * engine left alone are put back as written (placeholders.ts).
 *
 * Pure: no I/O.
 */
import { decodeHTMLStrict } from "entities/decode";
import type { Escape } from "./placeholders.ts";
import { closesMath } from "./markdown_math_dollars.ts";

/** CommonMark's references: HTML5's named ones with `;`, and numeric ones. */
export function decodeMarkdownReference(reference: string): string | undefined {
  return decodeHTMLStrict(reference);
}

/** White space holding line breaks: one space in its place (matched from its first space). */
const LINE_BREAK = /(?<![ \t])(?:[ \t]*(?:\r\n?|\n))+[ \t]*/g;
/**
 * Punctuation that is syntax wherever it stands; `_` only where it can open or close, `\` only
 * before punctuation or at the end (`C:\Users` stays as written).
 */
const SYNTAX = /[`*[\]~]|\\(?=[!-/:-@[-`{-~]|$)|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;
/** In a table cell, `|` too: it would add a column. */
const CELL_SYNTAX = new RegExp(`\\||${SYNTAX.source}`, "gu");
/** An `&` that would start a character reference. */
export const REFERENCE_LIKE = /&(?=#\d{1,7};|#[xX][\da-fA-F]{1,6};|[a-zA-Z][a-zA-Z\d]*;)/g;
const TAG_LIKE = /<(?=[a-zA-Z/!?])/g;
/** Markup after a run that a `<` ending the run would open as a tag or an autolink. */
const OPENS_AFTER_ANGLE = /^[a-zA-Z/!?]/;
/**
 * A block marker at a line's start: a quote, a table's delimiter row (`|---|`, `:--`: under a
 * paragraph's line it makes a table of it) or a directive fence; a heading, a list item (white
 * space or the line's end after either), a thematic break or a setext underline (a line of `=`s
 * alone). `*` and `_` are escaped everywhere already. A mark that opens none of them is text
 * and stays as written: a tag (`#tag`, Obsidian's and Bear's), `==highlight==`, `+tag`,
 * `-flag`, `2.5`; a backslash would change the bytes, and show the highlight's marks.
 */
const BLOCK_START = /^(?:[>|:]|(?:#{1,6}|[+-]|\d{1,9}[.)])(?=[ \t]|$)|-(?=-)|=+[ \t]*$)/;
/** Markup after a run that goes on with the run's line: a marker ending the run opens nothing. */
const GOES_ON = /^[^ \t\r\n]/;
/** White space at a line's start: four columns of it make indented code of a block's start. */
const LINE_INDENT = /^[ \t]+/;
/** Markup that ends a line: a line break with the next line's prefix. */
const ENDS_LINE = /[\r\n][ \t>]*$/;
const STARTS_LINE_BREAK = /^[ \t]*[\r\n]/;
/** An ATX heading's closing sequence: `#`s after a space at the heading's end. */
const CLOSING_HASHES = /[ \t]#+[ \t]*$/;

/**
 * Markup ending in a bare address (GFM's autolink literal, not `<…>` nor a link's `(…)`): a
 * backslash right after it would be read as part of it.
 */
const ENDS_BARE_ADDRESS = /(?<![(<])\b(?:https?:\/\/|www\.)[^\s<>]*$/i;
/**
 * What GFM leaves out of an address it ends (micromark's reading): a run of trailing punctuation
 * before white space, a `<` or the end, and a `]` before `(` (a link's end).
 */
const LEFT_OUT = /^[.,:;"'?!*_~)\]]*(?:\s|<|$)/;
const PUNCTUATION_ESCAPE = /\\(?=[!-/:-@[-`{-~])/g;

/** Where a Markdown text block's runs stand. */
export interface MarkdownPlace {
  /** The block's first run starts a line (a paragraph's; not a heading's or a cell's). */
  startsLine: boolean;
  /** A table cell: `|` is syntax. */
  cell: boolean;
  /** An ATX heading: `#`s at its end would close it. */
  heading: boolean;
}

/**
 * Writes a run the engine changed as text of its block, knowing the markup around it
 * (`before`, `after`; undefined at the block's ends): an engine's answer is words, never
 * syntax.
 */
export function markdownEscape(place: MarkdownPlace): Escape {
  const syntax = place.cell ? CELL_SYNTAX : SYNTAX;
  return (text, before, after) => {
    const words = text.replace(LINE_BREAK, " ").replace(syntax, "\\$&");
    let escaped = escapeDollars(words, before, after).replace(REFERENCE_LIKE, "&amp;")
      .replace(TAG_LIKE, "&lt;");
    // The engine reads `&lt;` as `<`: one it puts right before an address (`<ana@x.org>`) or
    // a tag's name the markup holds would open an autolink or a tag.
    if (escaped.endsWith("<") && OPENS_AFTER_ANGLE.test(after ?? "")) {
      escaped = `${escaped.slice(0, -1)}&lt;`;
    }
    if (before !== undefined && ENDS_BARE_ADDRESS.test(before)) {
      escaped = outOfAddress(escaped, after);
    }
    const startsLine = before === undefined ? place.startsLine : ENDS_LINE.test(before);
    if (startsLine) escaped = escaped.replace(LINE_INDENT, "");
    const marker = startsLine ? BLOCK_START.exec(escaped) : null;
    const opens = marker !== null &&
      (/^[>|:]/.test(marker[0]) || marker[0] !== escaped || !GOES_ON.test(after ?? ""));
    if (opens) {
      // `1.` becomes `1\.`; `#`, `>`, `-`, `+`, `=`, `|`, `:` get their backslash before them.
      const at = /^\d/.test(marker[0]) ? marker[0].length - 1 : 0;
      escaped = escaped.slice(0, at) + "\\" + escaped.slice(at);
    }
    // Spaces before a line break would make it a hard break; a `!` before a link an image.
    if (after !== undefined && STARTS_LINE_BREAK.test(after)) {
      escaped = escaped.replace(/[ \t]+$/, ""); // not trimEnd: a no-break space is text
    }
    if (after?.startsWith("[") && escaped.endsWith("!")) escaped = escaped.slice(0, -1) + "\\!";
    const closing = place.heading && after === undefined ? CLOSING_HASHES.exec(escaped) : null;
    if (closing !== null) {
      const at = closing.index + closing[0].indexOf("#");
      escaped = escaped.slice(0, at) + "\\" + escaped.slice(at);
    }
    return escaped;
  };
}

/**
 * `text` with a backslash before each `$` that could pair inline math with another: one next
 * to a `$` (`$$` is display math, and a `$` beside the markup's would change its run), and one
 * that could close math ({@link closesMath}). With those escaped, none left can close: an
 * opening `$` (a price's `$5`) pairs with nothing, and is left as written.
 */
function escapeDollars(text: string, before?: string, after?: string): string {
  if (!text.includes("$")) return text;
  return text.replace(/\$/g, (dollar, at: number) => {
    // A line's prefix (`> `) is no character before a `$` at the line's start: a line end is.
    const previous = at > 0
      ? text[at - 1]
      : ENDS_LINE.test(before ?? "\n")
      ? undefined
      : before?.at(-1);
    const next = at + 1 < text.length ? text[at + 1] : after?.[0];
    const paired = previous === "$" || next === "$" ||
      closesMath(1, code(previous), code(next));
    return paired ? "\\$" : dollar;
  });
}

/** A character's code for the math rule; NaN (white space to it) where there is none. */
function code(character: string | undefined): number {
  return character === undefined ? NaN : character.charCodeAt(0);
}

/**
 * `escaped` (a run right after a bare address) without the backslash before its first mark
 * where GFM leaves the mark out of the address: that backslash would be read as part of it
 * (`http://example.com/a\]` links to `…/a\`), and the mark unescaped is text.
 */
function outOfAddress(escaped: string, after: string | undefined): string {
  const mark = /^\\([\]*_~])/.exec(escaped)?.[1];
  if (mark === undefined) return escaped;
  const rest = (escaped.slice(2) + (after ?? "")).replace(PUNCTUATION_ESCAPE, "");
  const leftOut = LEFT_OUT.test(mark + rest) || (mark === "]" && rest.startsWith("("));
  return leftOut ? escaped.slice(1) : escaped;
}

/**
 * A text block's translation with the line breaks an engine moved kept from adding lines. A
 * block's text never starts or ends with a line break, nor holds a blank line: one the engine
 * put at an end (after a setext heading's text it ends the heading; in a list item a blank line
 * makes the list loose) or next to another (a blank line splits a paragraph) goes, the first
 * of those side by side staying. A source block of such a shape (`<b\n>` ending a paragraph
 * reads as one) is its own judge: `source` is written as it was read.
 */
export function withoutAddedLines(block: string, source: string): string {
  if (!block.includes("\n") && !block.includes("\r")) return block;
  if (addedBreaks(source).length > 0) return block;
  let output = "";
  let at = 0;
  for (const [start, end] of addedBreaks(block)) {
    output += block.slice(at, start);
    at = end;
  }
  return output + block.slice(at);
}

/**
 * The line breaks of `text` that add lines: of breaks side by side, all at its start or end,
 * else all but the first.
 */
function addedBreaks(text: string): [number, number][] {
  const breaks = lineBreaks(text);
  const added: [number, number][] = [];
  for (let first = 0, last = 0; first < breaks.length; first = last + 1) {
    last = first;
    while (last + 1 < breaks.length && breaks[last + 1][0] === breaks[last][1]) last++;
    const atEnd = breaks[first][0] === 0 || breaks[last][1] === text.length;
    added.push(...breaks.slice(atEnd ? first : first + 1, last + 1));
  }
  return added;
}

/**
 * The [start, end) of each line break of `text`: a line ending with the spaces (and a hard
 * break's `\`) before it and the next line's prefix (`>`, indentation) after it. A loop, not an
 * expression: spaces tried at every start would take the square of a line of them.
 */
function lineBreaks(text: string): [number, number][] {
  const breaks: [number, number][] = [];
  let previous = 0;
  for (let at = 0; at < text.length; at++) {
    const unit = text[at];
    if (unit !== "\n" && unit !== "\r") continue;
    let start = at;
    while (start > previous && (text[start - 1] === " " || text[start - 1] === "\t")) start--;
    if (start > previous && text[start - 1] === "\\") start--;
    let end = unit === "\r" && text[at + 1] === "\n" ? at + 2 : at + 1;
    while (end < text.length && (text[end] === " " || text[end] === "\t" || text[end] === ">")) {
      end++;
    }
    breaks.push([start, end]);
    previous = end;
    at = end - 1;
  }
  return breaks;
}
