/**
 * The open containers of the own Markdown scanner (markdown_scan.ts), block quotes and list
 * items, and how much of a line they take: a quote its `>` and one space after it, an item its
 * indent; a blank line continues an item.
 */
import { isBlank, SPACE, spaces } from "./markdown_scan_lines.ts";

/**
 * An open container: a block quote, or a list item with its indent (marker, spaces around it),
 * which micromark counts from where the containers around it end on each line.
 */
export type Container = { quote: true } | { quote: false; indent: number; marker: number };

/** Where a line's content starts past the open containers it continues, and how many. */
export interface Continued {
  at: number;
  matched: number;
}

/** How far the line [lineStart, lineEnd) continues `containers`, outermost first. */
export function continued(
  source: string,
  containers: readonly Container[],
  lineStart: number,
  lineEnd: number,
): Continued {
  let at = lineStart;
  let matched = 0;
  for (const container of containers) {
    if (container.quote) {
      const indent = spaces(source, at, lineEnd);
      if (indent > 3 || source.charCodeAt(at + indent) !== 62) break;
      at += indent + 1;
      if (source.charCodeAt(at) === SPACE) at++;
    } else if (isBlank(source, at, lineEnd)) {
      at = lineEnd;
    } else {
      if (spaces(source, at, lineEnd) < container.indent) break;
      at += container.indent;
    }
    matched++;
  }
  return { at, matched };
}

/**
 * The line after the one ending at `lineEnd`: where its content starts past `containers` (-1
 * where it leaves one of them) and where it ends; undefined at the document's end.
 */
export function nextLine(
  source: string,
  containers: readonly Container[],
  lineEnd: number,
): { at: number; end: number } | undefined {
  const start = lineEnd + 1;
  if (start >= source.length) return undefined;
  let end = source.indexOf("\n", start);
  if (end < 0) end = source.length;
  const { at, matched } = continued(source, containers, start, end);
  return { at: matched === containers.length ? at : -1, end };
}
