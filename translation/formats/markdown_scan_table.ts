/**
 * GFM tables for the own Markdown scanner (markdown_scan.ts): a header row with pipes, a
 * delimiter row with as many cells, then rows up to a blank line, a line that leaves the
 * table's containers (block quotes, list items) or one that starts another block. Declines where
 * micromark may read the lines otherwise (a row with more cells than the header, a row of dashes
 * alone under the header). `TableReader` holds a document's open table for the scanner and puts
 * its cells out as text blocks.
 */
import { DECLINE } from "./markdown_marked_lexer.ts";
import { type Container, nextLine } from "./markdown_scan_containers.ts";
import type { TextBlock } from "./markdown_scan_nodes.ts";
import {
  blockStart,
  footnoteDefinitionAhead,
  htmlBlockAhead,
  isBlank,
  listMarker,
  SPACE,
  spaces,
  trimEnd,
} from "./markdown_scan_lines.ts";

/** A table's delimiter row (`|:--|--:|`), indented less than four spaces. */
const DELIMITER_ROW = / {0,3}(?! )\|? *:?-+:? *(?:\| *:?-+:? *)*\|? *(?=\n|$)/y;

/** A delimiter row of one column with a colon (`:-`, `-:`, `:-:`), after any container prefix. */
const PIPELESS_DELIMITER_ROW = /[ >]*(?::-+:?|-+:) *(?=\n|$)/y;

/**
 * Whether the line at `at` holds a pipe and the next line, in the same open `containers`, is a
 * table's delimiter row. A line without a pipe over a delimiter row declines: micromark may read a
 * table of one column.
 */
export function tableAhead(
  source: string,
  at: number,
  lineEnd: number,
  containers: readonly Container[],
): boolean {
  if (lineEnd >= source.length) return false;
  const piped = hasPipe(source, at, lineEnd);
  if (!piped) {
    // micromark also reads a table of one column and no pipe over a delimiter row with a colon.
    PIPELESS_DELIMITER_ROW.lastIndex = lineEnd + 1;
    if (PIPELESS_DELIMITER_ROW.test(source)) throw DECLINE;
    // Most lines of text: no pipe in them or the next, nothing more to look at.
    const nextEnd = source.indexOf("\n", lineEnd + 1);
    if (!hasPipe(source, lineEnd + 1, nextEnd < 0 ? source.length : nextEnd)) return false;
  }
  // A pipe alone is no header row to micromark.
  if (piped && trimEnd(source, at, lineEnd) === at + 1 && source.charCodeAt(at) === PIPE) {
    return false;
  }
  // micromark reads no delimiter row on a line that leaves a container (lazy) or opens an item.
  const next = nextLine(source, containers, lineEnd);
  if (!next || next.at < 0) return false;
  DELIMITER_ROW.lastIndex = next.at;
  if (!DELIMITER_ROW.test(source) || DELIMITER_ROW.lastIndex !== next.end) return false;
  // A row of dashes alone under a row with a pipe may be a setext underline or an empty item.
  if (!source.slice(next.at, next.end).includes("|")) {
    if (piped) throw DECLINE;
    return false;
  }
  if (listMarker(source, next.at + spaces(source, next.at, next.end), next.end) > 0) return false;
  if (!piped) throw DECLINE;
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

/** The cells of a table's header row (empty ones included), checked against its delimiter row. */
function headerCells(
  source: string,
  at: number,
  lineEnd: number,
  delimiterRow: { at: number; end: number },
): [number, number][] {
  const header = cells(source, at, lineEnd);
  if (cells(source, delimiterRow.at, delimiterRow.end).length !== header.length) throw DECLINE;
  return header;
}

/**
 * Whether the line at `at` (past the table's containers) is a row of an open table: micromark
 * tries every other block first, so a line that starts one ends the table.
 */
function isRow(source: string, at: number, lineEnd: number): boolean {
  if (isBlank(source, at, lineEnd) || spaces(source, at, lineEnd) >= 4) return false; // code
  return blockStart(source, at, lineEnd, false) === "other" &&
    !htmlBlockAhead(source, at, lineEnd) && !footnoteDefinitionAhead(source, at);
}

/** The cells of a table's row at `at` (past its containers), at most `columns`. */
function rowCells(
  source: string,
  at: number,
  lineEnd: number,
  columns: number,
): [number, number][] {
  const row = cells(source, at, lineEnd);
  if (row.length > columns) throw DECLINE;
  return row;
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

/** The open table of a document, if any, and its cells, put into `out` as text blocks. */
export class TableReader {
  /** The open table's columns: its rows have at most as many cells as its header. */
  #columns: number | undefined;

  constructor(readonly source: string, readonly out: { push(block: TextBlock): unknown }) {}

  get open(): boolean {
    return this.#columns !== undefined;
  }

  /**
   * A table whose header row starts at `at`, in the open `containers`: the end of its delimiter
   * row (read with it), or -1 where no table starts.
   */
  start(at: number, lineEnd: number, containers: readonly Container[]): number {
    const source = this.source;
    if (!tableAhead(source, at, lineEnd, containers)) return -1;
    const header = headerCells(source, at, lineEnd, nextLine(source, containers, lineEnd)!);
    this.#columns = header.length;
    this.#cells(header);
    const delimiterEnd = source.indexOf("\n", lineEnd + 1);
    return delimiterEnd < 0 ? source.length : delimiterEnd;
  }

  /**
   * A line while a table is open, from `at` past the containers it continues (`all`): true when
   * it is a row. A row goes on while the line continues the containers, is not blank and starts
   * no block of its own (a heading, a list, a quote, a fence, HTML...); any other line ends it.
   */
  line(at: number, lineEnd: number, all: boolean): boolean {
    if (!all || !isRow(this.source, at, lineEnd)) {
      this.#columns = undefined;
      return false;
    }
    this.#cells(rowCells(this.source, at, lineEnd, this.#columns!));
    return true;
  }

  #cells(cells: [number, number][]): void {
    for (const [start, end] of cells) {
      if (end > start) this.out.push({ start, end, lineStarts: [], check: false });
    }
  }
}
