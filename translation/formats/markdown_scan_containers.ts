/**
 * The open containers of the own Markdown scanner (markdown_scan.ts), block quotes, list items
 * and footnote definitions, and how much of a line they take: a quote its `>` and one space
 * after it, an item its indent, a footnote definition four spaces; a blank line continues an
 * item (one opened empty then ends at the next line that is not blank) and a definition.
 */
import { DECLINE } from "./markdown_marked_lexer.ts";
import { isBlank, SPACE, spaces } from "./markdown_scan_lines.ts";

/**
 * An open container: a block quote, or a list item with its indent (marker, spaces around it),
 * which micromark counts from where the containers around it end on each line.
 */
export type Container = { quote: true } | ListItem;

/**
 * A footnote definition (at the document's top level): micromark goes on with it on a blank
 * line or one indented four spaces, as with a list item of indent 4.
 */
export function footnoteDefinition(): ListItem {
  return { quote: false, indent: 4 };
}

/** An open list item. */
export interface ListItem {
  quote: false;
  indent: number;
  /**
   * Opened on a line with nothing after its marker, and no content line since: micromark ends
   * it at the first line that is not blank once a blank line has followed (`blankAfter`).
   */
  emptyStart?: boolean;
  blankAfter?: boolean;
}

/**
 * Where a line's content starts past the open containers it continues, how many, and from
 * which of them on the rest of the line was blank (as each saw it; `matched` where none did).
 */
export interface Continued {
  at: number;
  matched: number;
  blankFrom: number;
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
  let blankFrom = -1;
  for (const container of containers) {
    if (container.quote) {
      const indent = spaces(source, at, lineEnd);
      if (indent > 3 || source.charCodeAt(at + indent) !== 62) break;
      at += indent + 1;
      if (source.charCodeAt(at) === SPACE) at++;
    } else if (isBlank(source, at, lineEnd)) {
      if (blankFrom === -1) blankFrom = matched;
      at = lineEnd;
    } else {
      if (container.blankAfter || spaces(source, at, lineEnd) < container.indent) break;
      at += container.indent;
    }
    matched++;
  }
  return { at, matched, blankFrom: blankFrom === -1 ? matched : blankFrom };
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

/**
 * Items opened empty, on the next lines (`line` as {@link continued} read it): a blank line
 * makes the next line that is not blank end them; a line with content that continues them is
 * their first, and they go on as any item. A line starting with `[` after one, in it or not,
 * may be a task check micromark reads as the item's: declined.
 */
export function afterEmptyItems(
  source: string,
  containers: readonly Container[],
  line: Continued,
  lineEnd: number,
): void {
  for (let index = 0; index < containers.length; index++) {
    const container = containers[index];
    if (container.quote || !container.emptyStart) continue;
    if (source.charCodeAt(line.at + spaces(source, line.at, lineEnd)) === 91) throw DECLINE;
    if (index >= line.matched) continue; // ended by the line
    if (index >= line.blankFrom) container.blankAfter = true;
    else container.emptyStart = container.blankAfter = false;
  }
}
