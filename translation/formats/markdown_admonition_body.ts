/**
 * MkDocs' admonition, collapsible and tab bodies after a blank line (`!!! note "Title"`, a
 * blank line, then `    Body text`): to CommonMark the body is indented code, so it was never
 * sent, while MkDocs renders it as the admonition's Markdown. A block of lines indented four
 * columns or more (blank lines between) right after such a marker line and blank lines is read
 * as Markdown: its indent is taken off, it is cut as a document of its own (code in it is code
 * again, an admonition in it has a body of its own), and its translation is indented back line
 * by line as it was written. The indented block anywhere else stays code.
 *
 * Pure: no I/O.
 */
import type { CutItem } from "./format.ts";
import { isMkDocsMarkerLine } from "./markdown_extensions.ts";

/**
 * The [start, end) of the indented body that follows the paragraph [start, end) of `source`
 * when the paragraph starts with a marker line at a line's start and a blank line follows it: from its
 * first line's start to its last line's end. Undefined for any other paragraph.
 */
export function indentedBody(
  source: string,
  start: number,
  end: number,
): [number, number] | undefined {
  if (start > 0 && source[start - 1] !== "\n" && source[start - 1] !== "\r") return undefined;
  // An admonition (`!!! note`), a collapsible (`??? tip`) or a tab (`=== "Tab"`), one line.
  // Its first line: a body line right under it may continue its paragraph.
  if (!isMkDocsMarkerLine(source.slice(start, endOfLine(source, start)))) return undefined;
  let line = lineAfter(source, end);
  // A blank line first: a line right under the marker continues its paragraph.
  if (line >= source.length || !isBlank(source, line)) return undefined;
  let first = -1;
  let last = -1;
  while (line < source.length) {
    const lineEnd = endOfLine(source, line);
    if (!isBlank(source, line)) {
      if (indentColumns(source, line, lineEnd) < 4) break;
      if (first === -1) first = line;
      last = lineEnd;
    }
    line = lineAfter(source, lineEnd);
  }
  return first >= 0 ? [first, last] : undefined;
}

/**
 * The cut of the body [start, end) of `source`: its lines without their indent cut by `cut`,
 * the translation indented back as each line was.
 */
export function cutIndentedBody(
  source: string,
  start: number,
  end: number,
  cut: (text: string) => CutItem,
): CutItem {
  const indents: string[] = [];
  let inner = "";
  for (let line = start; line < end;) {
    const lineEnd = Math.min(endOfLine(source, line), end);
    const next = Math.min(lineAfter(source, lineEnd), end);
    const indent = indentOf(source, line, lineEnd);
    indents.push(indent);
    inner += source.slice(line + indent.length, next);
    line = next;
  }
  const body = cut(inner);
  return {
    segments: body.segments,
    assemble(translated) {
      const lines = body.assemble(translated).split(/(?<=\r\n|\r(?!\n)|\n)/);
      // A translation keeps its lines (markdown_escape.ts); were one added, it is indented too.
      return lines.map((text, index) =>
        (indents[index] ?? (text.trim() === "" ? "" : "    ")) + text
      ).join("");
    },
  };
}

function isBlank(source: string, line: number): boolean {
  return source.slice(line, endOfLine(source, line)).trim() === "";
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

/** The columns of white space that start the line [line, end) (a tab to the next stop of 4). */
function indentColumns(source: string, line: number, end: number): number {
  let columns = 0;
  for (let at = line; at < end && (source[at] === " " || source[at] === "\t"); at++) {
    columns = source[at] === "\t" ? columns + 4 - (columns % 4) : columns + 1;
  }
  return columns;
}

/** The white space of four columns (or less on a blank line) that starts the line. */
function indentOf(source: string, line: number, end: number): string {
  let columns = 0;
  let at = line;
  while (at < end && columns < 4 && (source[at] === " " || source[at] === "\t")) {
    columns = source[at] === "\t" ? columns + 4 - (columns % 4) : columns + 1;
    at++;
  }
  return source.slice(line, at);
}
