/**
 * What micromark's rules of interrupting make of the first block a line starts, for the own
 * Markdown scanner (markdown_scan.ts): after an open paragraph, indented code or a definition
 * in the same containers, some blocks may not start (an empty item, a list at 2., a tag alone),
 * and micromark's own readings of those lines, found by comparing the scanner with it.
 */
import { DECLINE } from "./markdown_marked_lexer.ts";
import { blockStart, spaces } from "./markdown_scan_lines.ts";
import { hasPipe } from "./markdown_scan_table.ts";

/** How micromark reads the first block a line starts, after what was open before it. */
export interface LineRules {
  /** It interrupts a paragraph, indented code or a definition in the same containers. */
  interrupting: boolean;
  /**
   * An item that may not interrupt (empty, or numbered other than 1) is text, after code or a
   * definition; it starts after code of one line (blank lines aside) that closed containers and
   * opened none (`itemsStart`).
   */
  itemsAsText: boolean;
  itemsStart: boolean;
  /** A tag alone goes on a definition's content (after code it starts an HTML block). */
  tagsInterrupt: boolean;
}

/**
 * Sets `rules` for a line that continues all open containers (`all`) or not, after what was open
 * before it in them: a paragraph, indented code (of one line, blank lines aside, that closed
 * containers and opened none: `oneLineCodeAfterClosing`), a definition. Positional flags: the
 * scanner calls it on every line.
 */
export function setLineRules(
  rules: LineRules,
  all: boolean,
  paragraph: boolean,
  code: boolean,
  oneLineCodeAfterClosing: boolean,
  definition: boolean,
): void {
  rules.interrupting = all && (paragraph || code || definition);
  rules.itemsStart = rules.interrupting && oneLineCodeAfterClosing;
  rules.itemsAsText = rules.interrupting && !paragraph && !rules.itemsStart;
  rules.tagsInterrupt = all && definition;
}

/**
 * Checks a line that ends a code block or follows a definition: micromark starts what follows
 * as if it interrupted them (no list at 2., no empty item, no HTML of kind 7, no table). In the
 * same containers (`all`) such an item or tag is read by the scanner's `open`; past them, and
 * where a table may start, declines.
 */
export function checkInterruption(source: string, at: number, lineEnd: number, all: boolean): void {
  const content = at + spaces(source, at, lineEnd);
  const start = blockStart(source, at, lineEnd, true);
  if (!all && (start === "item-lazy" || source.charCodeAt(content) === 60)) throw DECLINE;
  if (hasPipe(source, content, lineEnd)) throw DECLINE;
}
