/**
 * GFM tables for the own Markdown scanner (markdown_scan.ts): a header row with pipes, a
 * delimiter row with as many cells, then rows up to a blank line. Declines where micromark may
 * read the lines otherwise (a table ended by another block, a row with more cells than the
 * header, a row of dashes alone under the header, a table inside a container).
 */
import { DECLINE } from "./markdown_marked_lexer.ts";
import { blockStart, isBlank, SPACE, spaces, trimEnd } from "./markdown_scan_lines.ts";

/** A table's delimiter row (`|:--|--:|`), indented less than four spaces. */
const DELIMITER_ROW = / {0,3}(?! )\|? *:?-+:? *(?:\| *:?-+:? *)*\|? *(?=\n|$)/y;

/** A delimiter row of one column with a colon (`:-`, `-:`, `:-:`), after any container prefix. */
const PIPELESS_DELIMITER_ROW = /[ >]*(?::-+:?|-+:) *(?=\n|$)/y;

/**
 * Whether the line at `at` holds a pipe and the next line is a table's delimiter row. In a
 * container, whose prefixes the rows carry, a line with a pipe over one with a dash declines.
 */
export function tableAhead(
  source: string,
  at: number,
  lineEnd: number,
  inContainer: boolean,
): boolean {
  if (lineEnd >= source.length) return false;
  if (!hasPipe(source, at, lineEnd)) {
    // micromark also reads a table of one column and no pipe over a delimiter row with a colon.
    PIPELESS_DELIMITER_ROW.lastIndex = lineEnd + 1;
    if (PIPELESS_DELIMITER_ROW.test(source)) throw DECLINE;
    return false;
  }
  let next = source.indexOf("\n", lineEnd + 1);
  if (next < 0) next = source.length;
  if (inContainer) {
    if (/\|.*-|-.*\|/.test(source.slice(lineEnd + 1, next))) throw DECLINE;
    return false;
  }
  DELIMITER_ROW.lastIndex = lineEnd + 1;
  if (!DELIMITER_ROW.test(source) || DELIMITER_ROW.lastIndex !== next) return false;
  // A row of dashes alone may be a setext underline.
  if (!source.slice(lineEnd + 1, next).includes("|")) throw DECLINE;
  return true;
}

/**
 * Whether [from, lineEnd) holds a `|`: looked for in the line only, since `indexOf` would run on
 * to the end of the document at every line of a long paragraph without one (the square of the
 * number of lines: 32,000 short lines took 0.2 s).
 */
export function hasPipe(source: string, from: number, lineEnd: number): boolean {
  for (let at = from; at < lineEnd; at++) {
    if (source.charCodeAt(at) === PIPE) return true;
  }
  return false;
}

const PIPE = 0x7c;

/**
 * The cells of the table whose header row is the line at `at` (empty ones included), and the
 * end of its last line.
 */
export function tableCells(source: string, at: number, lineEnd: number) {
  const header = cells(source, at, lineEnd);
  const found = [...header];
  let rowStart = source.indexOf("\n", lineEnd + 1) + 1;
  let end = rowStart === 0 ? source.length : rowStart - 1;
  if (cells(source, lineEnd + 1, end).length !== header.length) throw DECLINE;
  while (rowStart > 0 && rowStart < source.length) {
    let rowEnd = source.indexOf("\n", rowStart);
    if (rowEnd < 0) rowEnd = source.length;
    if (isBlank(source, rowStart, rowEnd)) break;
    const start = blockStart(source, rowStart, rowEnd, false);
    const indent = spaces(source, rowStart, rowEnd);
    // An HTML tag may end the table in micromark (a block of kind 7 after it).
    if (start !== "other" || indent > 3 || source[rowStart + indent] === "<") throw DECLINE;
    const row = cells(source, rowStart, rowEnd);
    if (row.length > header.length) throw DECLINE;
    found.push(...row);
    end = rowEnd;
    rowStart = rowEnd + 1;
  }
  return { cells: found, end };
}

/** The [start, end) of each cell of a table row (outer pipes and spaces left out). */
function cells(source: string, start: number, end: number): [number, number][] {
  const out: [number, number][] = [];
  let at = start + spaces(source, start, end);
  if (source.charCodeAt(at) === 124) at++;
  let cell = at;
  for (; at <= end; at++) {
    const code = at === end ? 124 : source.charCodeAt(at);
    // An escape takes the next character; a `\` ending the row escapes nothing.
    if (code === 92 && at + 1 < end) {
      at++;
      continue;
    }
    if (code !== 124) continue;
    if (at === end && isBlank(source, cell, end) && out.length > 0) break;
    let from = cell;
    while (from < at && source.charCodeAt(from) === SPACE) from++;
    out.push([from, trimEnd(source, from, at)]);
    cell = at + 1;
  }
  return out;
}
