/**
 * Link reference definitions for the own Markdown scanner (markdown_scan.ts): on one line, or a
 * label alone on its line with the destination and title on the next, as micromark reads them.
 * Other ways a definition may go over lines decline.
 */
import { DECLINE } from "./markdown_marked_lexer.ts";
import { type Container, nextLine } from "./markdown_scan_containers.ts";
import {
  blockStart,
  DEFINITION,
  DEFINITION_LABEL_LINE,
  DEFINITION_REST_LINE,
  isSetextUnderline,
} from "./markdown_scan_lines.ts";
import { hasPipe, tableAhead } from "./markdown_scan_table.ts";

/**
 * A link label (no unescaped bracket inside, over any lines) then `]:`: micromark may read a
 * definition there, which the readings below did not take.
 */
const LABEL_THEN_COLON = /\[(?:[^\]\[\\]|\\[^])*\]:/y;

/** A definition read: its label, and the end of its last line. */
export interface Definition {
  label: string;
  end: number;
}

/**
 * The definition starting at `at` (a `[` past the containers' prefixes), undefined where the
 * line starts none; `firstInItem`: the line opens a list item.
 *
 * @throws DECLINE where micromark may read a definition the readings here do not, a task check
 * after it or a table under it.
 */
export function definitionAt(
  source: string,
  at: number,
  lineEnd: number,
  containers: readonly Container[],
  firstInItem: boolean,
): Definition | undefined {
  DEFINITION.lastIndex = at;
  const oneLine = DEFINITION.exec(source);
  if (oneLine) {
    // micromark reads a task check on the line after a definition that starts an item, and a
    // table whose header is the definition's line over a delimiter row.
    if (firstInItem || tableAhead(source, at, lineEnd, containers)) throw DECLINE;
    return { label: oneLine[1], end: lineEnd };
  }
  DEFINITION_LABEL_LINE.lastIndex = at;
  const labelLine = DEFINITION_LABEL_LINE.exec(source);
  if (labelLine) {
    return {
      label: labelLine[1],
      end: destinationLineEnd(source, at, lineEnd, containers, firstInItem),
    };
  }
  if (/^\[[^\]]*\]:/.test(source.slice(at, lineEnd))) throw DECLINE;
  LABEL_THEN_COLON.lastIndex = at;
  if (LABEL_THEN_COLON.test(source)) throw DECLINE;
  return undefined;
}

/**
 * The end of the line after a definition's label line that holds its destination and title,
 * whole and in the same containers.
 *
 * @throws DECLINE for a lazy line, one micromark may read as a block or an underline, or one
 * holding more or less than the destination and title.
 */
function destinationLineEnd(
  source: string,
  at: number,
  lineEnd: number,
  containers: readonly Container[],
  firstInItem: boolean,
): number {
  if (firstInItem || tableAhead(source, at, lineEnd, containers)) throw DECLINE;
  const next = nextLine(source, containers, lineEnd);
  if (!next || next.at < 0 || hasPipe(source, next.at, next.end)) throw DECLINE;
  if (blockStart(source, next.at, next.end, true) !== "other") throw DECLINE;
  if (isSetextUnderline(source, next.at, next.end)) throw DECLINE;
  DEFINITION_REST_LINE.lastIndex = next.at;
  if (!DEFINITION_REST_LINE.test(source)) throw DECLINE;
  return next.end;
}
