/**
 * Line endings and tabs for the own Markdown scanner (markdown_scan.ts), which reads LF line
 * endings and spaces only. A document with CRs or tabs is read as the text micromark's column
 * model makes of it, and every offset of the tree is moved back onto the document as written:
 * - a CR LF, or a CR alone (a line ending too, in old Mac files), is read as an LF; a CR belongs
 *   to the line ending it starts, so an offset at that LF lands on the CR (a paragraph ends
 *   before it, the line ending starts with it);
 * - a tab is read as the spaces up to the next stop of 4 columns, columns counted in UTF-16
 *   code units from the line's start, as micromark's preprocessing turns a tab into the tab and
 *   its virtual spaces: that decides indentation (code or not), the column of a list item's
 *   content and the part of a tab a block quote's `>` takes;
 * - white space ending a line that holds a tab is read as one space: micromark makes it a line
 *   suffix, never a hard break, which two spaces would be.
 * A tree boundary inside a tab's spaces (a container that took part of a tab) has no offset in
 * the document as written: the reader declines. Files saved on Windows have CR LF throughout,
 * and tab-indented lists are common: without this, every one went to marked or micromark, whose
 * time grows with the square of some inputs (`]` × 8,000 after a lone CR took 0.44 s).
 */
import { DECLINE } from "./markdown_marked_lexer.ts";
import type { Syntax } from "./markdown_syntax.ts";

/**
 * `read`'s tree of `source` read with LF line endings and spaces for tabs, its offsets in
 * `source`; undefined where `read` declines or a tree boundary falls inside a tab.
 */
export function readInColumns(
  source: string,
  read: (source: string) => Syntax | undefined,
): Syntax | undefined {
  if (!source.includes("\r") && !source.includes("\t")) return read(source);
  const columns = inColumns(source);
  const tree = read(columns.text);
  if (!tree) return undefined;
  try {
    return withOffsets(tree, source.length, columns.original);
  } catch (error) {
    if (error === DECLINE) return undefined;
    throw error;
  }
}

/** A piece of the source read as other text: `[at, at + length)` of it stands for `[from, to)`. */
interface Replacement {
  at: number;
  length: number;
  from: number;
  to: number;
}

const TAB_STOP = 4;
const SPACE = 0x20;
const TAB = 0x09;
const CARRIAGE_RETURN = 0x0d;
const LINE_FEED = 0x0a;

/** The text the scanner reads, and the offset in `source` of each of its offsets. */
function inColumns(source: string): { text: string; original: (offset: number) => number } {
  const pieces: string[] = [];
  const replacements: Replacement[] = [];
  let length = 0; // of the text so far
  let copied = 0; // of the source, up to where it is in `pieces`
  const replace = (from: number, to: number, text: string) => {
    pieces.push(source.slice(copied, from), text);
    length += from - copied;
    replacements.push({ at: length, length: text.length, from, to });
    length += text.length;
    copied = to;
  };
  for (let lineStart = 0; lineStart <= source.length;) {
    let lineEnd = lineStart;
    while (lineEnd < source.length) {
      const code = source.charCodeAt(lineEnd);
      if (code === LINE_FEED || code === CARRIAGE_RETURN) break;
      lineEnd++;
    }
    // White space ending the line, and whether it holds a tab.
    let contentEnd = lineEnd;
    let trailingTab = false;
    for (; contentEnd > lineStart; contentEnd--) {
      const code = source.charCodeAt(contentEnd - 1);
      if (code !== SPACE && code !== TAB) break;
      if (code === TAB) trailingTab = true;
    }
    const readLineStart = length + (lineStart - copied);
    for (let tab = source.indexOf("\t", lineStart); tab >= 0 && tab < contentEnd;) {
      const column = length + (tab - copied) - readLineStart;
      replace(tab, tab + 1, " ".repeat(TAB_STOP - column % TAB_STOP));
      tab = source.indexOf("\t", tab + 1);
    }
    if (trailingTab) replace(contentEnd, lineEnd, " ");
    if (lineEnd === source.length) break;
    if (source.charCodeAt(lineEnd) === CARRIAGE_RETURN) {
      const crLf = source.charCodeAt(lineEnd + 1) === LINE_FEED;
      replace(lineEnd, lineEnd + (crLf ? 2 : 1), "\n");
      lineStart = lineEnd + (crLf ? 2 : 1);
    } else lineStart = lineEnd + 1;
  }
  pieces.push(source.slice(copied));
  const text = pieces.join("");
  const original = (offset: number) => {
    const index = lastAtOrBefore(replacements, offset);
    if (index < 0) return offset;
    const { at, length, from, to } = replacements[index];
    if (offset === at) return from;
    if (offset < at + length) throw DECLINE; // inside a tab's spaces
    return to + offset - (at + length);
  };
  return { text, original };
}

/** The index of the last replacement at or before `offset`, or -1. */
function lastAtOrBefore(replacements: readonly Replacement[], offset: number): number {
  let low = 0;
  let high = replacements.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (replacements[middle].at <= offset) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}

/** A copy of `tree` with every offset moved by `original`, its root spanning `length`. */
function withOffsets(tree: Syntax, length: number, original: (offset: number) => number): Syntax {
  const root = { ...tree, start: 0, end: length, children: [] as Syntax[] };
  // Copied without recursion (emphasis nested thousands deep is a deep tree), depth first: each
  // node's children go on the stack last first, so they come off, and are added, in order.
  const pending: [Syntax, Syntax][] = [];
  const later = (node: Syntax, copy: Syntax) => {
    for (let index = node.children.length - 1; index >= 0; index--) {
      pending.push([node.children[index], copy]);
    }
  };
  later(tree, root);
  while (pending.length > 0) {
    const [node, parent] = pending.pop()!;
    const copy = { ...node, start: original(node.start), end: original(node.end), children: [] };
    parent.children.push(copy);
    later(node, copy);
  }
  return root;
}
