/**
 * MkDocs' admonition, collapsible and tab bodies after a blank line (`!!! note "Title"`, a
 * blank line, then `    Body text`): to CommonMark the body is indented code, so it was never
 * sent, while MkDocs renders it as the admonition's Markdown. A block of lines indented four
 * columns or more past the marker line's own column (blank lines between) right after such a
 * marker line and blank lines is read as Markdown: its container prefix (a block quote's `>`)
 * and indent are taken off, it is cut as a document of its own (code in it is code again, an
 * admonition in it has a body of its own), and its translation gets each line's prefix back as
 * it was written. The same holds inside list items and block quotes (`- !!! tip`,
 * `> !!! note`). So is the block after a paragraph holding a definition (`Term`, `: Text`, a
 * blank line, `    More text`: Pandoc, PHP Markdown Extra, MkDocs' def_list). The indented block
 * anywhere else stays code.
 *
 * Pure: no I/O.
 */
import type { CutItem, CutPart } from "./format.ts";
import { holdsDefinition, isMkDocsMarkerLine } from "./markdown_extensions.ts";

/** What may stand before a paragraph on its line: block quote markers, list markers, indent. */
const CONTAINER_PREFIX = /^(?:[ \t>]|[-*+][ \t]|\d{1,9}[.)][ \t])*$/;

/** A body line: where it starts, where its text starts and its indent (columns). */
interface BodyLine {
  start: number;
  end: number;
  /** Past the block quote markers the marker line has. */
  content: number;
  /** The column of its first character that is not white space; -1 on a blank line. */
  indent: number;
}

/**
 * The part of `source` that is the indented body of the paragraph [start, end) when the
 * paragraph's first line is a marker line and a blank line follows the paragraph; cut by
 * `cut` as a document of its own. Undefined for any other paragraph.
 */
export function admonitionBody(
  source: string,
  start: number,
  end: number,
  cut: (text: string) => CutItem,
): CutPart | undefined {
  const lineStart = startOfLine(source, start);
  const prefix = source.slice(lineStart, start);
  if (!CONTAINER_PREFIX.test(prefix)) return undefined;
  // An admonition (`!!! note`), a collapsible (`??? tip`) or a tab (`=== "Tab"`), one line.
  // Its first line: a body line right under it may continue its paragraph. Or a definition
  // (`: `) on any line: Pandoc's and MkDocs' further paragraphs of it are indented as well.
  if (
    !isMkDocsMarkerLine(source.slice(start, endOfLine(source, start))) &&
    !holdsDefinition(source.slice(start, end))
  ) return undefined;
  const quotes = prefix.split(">").length - 1;
  const column = columnAt(source, lineStart, start);
  const lines = bodyLines(source, lineAfter(source, endOfLine(source, end)), quotes, column + 4);
  if (lines.length === 0) return undefined;
  // Python-Markdown indents each level by four columns from where a block quote's text starts
  // (a list item's text at column 2 has its admonition's body at 8), while CommonMark already
  // reads code from two columns less: the body's least indent, at most that.
  const quoted = quotedColumn(source, lineStart, start);
  const level = quoted + Math.ceil((column - quoted) / 4) * 4 + 4;
  const body = lines.reduce(
    (least, line) => line.indent >= 0 ? Math.min(least, line.indent) : least,
    level,
  );
  return { start: lines[0].start, end: lines.at(-1)!.end, cut: cutBody(source, lines, body, cut) };
}

/**
 * The lines of the body that starts at `line`: a blank line first (a line right under the marker
 * continues its paragraph), then lines indented `indent` columns or more and blank lines, each
 * with the marker line's `quotes` block quote markers; without blank lines at the end.
 */
function bodyLines(source: string, line: number, quotes: number, indent: number): BodyLine[] {
  const lines: BodyLine[] = [];
  const first = line < source.length ? bodyLine(source, line, quotes) : undefined;
  if (!first || first.indent >= 0) return lines;
  for (let at = line; at < source.length;) {
    const next = bodyLine(source, at, quotes);
    if (!next || (next.indent >= 0 && next.indent < indent)) break;
    lines.push(next);
    at = lineAfter(source, next.end);
  }
  while (lines.length > 0 && lines[0].indent < 0) lines.shift();
  while (lines.length > 0 && lines.at(-1)!.indent < 0) lines.pop();
  return lines;
}

/** The line at `start` read past `quotes` block quote markers; undefined where one is missing. */
function bodyLine(source: string, start: number, quotes: number): BodyLine | undefined {
  const end = endOfLine(source, start);
  let content = start;
  for (let quote = 0; quote < quotes; quote++) {
    while (content < end && (source[content] === " " || source[content] === "\t")) content++;
    if (source[content] !== ">") return undefined;
    content++;
  }
  let text = content;
  while (text < end && (source[text] === " " || source[text] === "\t")) text++;
  const indent = text === end ? -1 : columnAt(source, start, text);
  return { start, end, content, indent };
}

/**
 * The cut of the body `lines` of `source`: each line without its prefix (block quote markers
 * and `indent` columns) cut by `cut` as one text, the translation given each line's prefix
 * back.
 */
function cutBody(
  source: string,
  lines: readonly BodyLine[],
  indent: number,
  cut: (text: string) => CutItem,
): CutItem {
  const prefixes: string[] = [];
  let inner = "";
  const last = lines.at(-1)!.end;
  for (const line of lines) {
    let at = line.content;
    while (
      at < line.end && (source[at] === " " || source[at] === "\t") &&
      columnAt(source, line.start, at) < indent
    ) at++;
    prefixes.push(source.slice(line.start, at));
    inner += source.slice(at, Math.min(lineAfter(source, line.end), last));
  }
  const body = cut(inner);
  return {
    segments: body.segments,
    assemble(translated) {
      const texts = body.assemble(translated).split(/(?<=\r\n|\r(?!\n)|\n)/);
      // A translation keeps its lines (markdown_escape.ts); were one added, it is prefixed too.
      return texts.map((text, index) =>
        (prefixes[index] ?? (text.trim() === "" ? prefixes[0].trimEnd() : prefixes[0])) + text
      ).join("");
    },
  };
}

/** The column at which a block quote's text starts on the line (0 outside block quotes). */
function quotedColumn(source: string, lineStart: number, start: number): number {
  const marker = source.lastIndexOf(">", start - 1);
  if (marker < lineStart) return 0;
  const space = source[marker + 1] === " " || source[marker + 1] === "\t" ? 1 : 0;
  return columnAt(source, lineStart, marker + 1) + space;
}

/** The column of `at` on the line that starts at `lineStart` (a tab to the next stop of 4). */
function columnAt(source: string, lineStart: number, at: number): number {
  let columns = 0;
  for (let index = lineStart; index < at; index++) {
    columns = source[index] === "\t" ? columns + 4 - (columns % 4) : columns + 1;
  }
  return columns;
}

function startOfLine(source: string, at: number): number {
  let start = at;
  while (start > 0 && source[start - 1] !== "\n" && source[start - 1] !== "\r") start--;
  return start;
}

/** Where the line after the line end at `at` starts. */
function lineAfter(source: string, at: number): number {
  if (source[at] === "\r" && source[at + 1] === "\n") return at + 2;
  return at < source.length ? at + 1 : at;
}

function endOfLine(source: string, from: number): number {
  for (let at = from; at < source.length; at++) {
    if (source[at] === "\n" || source[at] === "\r") return at;
  }
  return source.length;
}
