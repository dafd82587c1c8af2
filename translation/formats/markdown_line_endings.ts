/**
 * CR LF line endings for the own Markdown scanner (markdown_scan.ts), which reads LF only: the
 * document is read with each CR LF as an LF, and every offset of the tree is moved back onto
 * the document as written. A CR belongs to the line ending it starts, so an offset at an LF that
 * had one lands on the CR (a paragraph ends before it, the line ending starts with it). Files
 * saved on Windows have CR LF throughout; without this, every one went to marked or micromark.
 * A CR that ends no line (old Mac files, or one alone inside a line) is left to them.
 */
import type { Syntax } from "./markdown_syntax.ts";

/**
 * `read`'s tree of `source` read with LF line endings, its offsets in `source`; undefined where
 * `read` declines or a CR is not followed by an LF.
 */
export function readWithLineFeeds(
  source: string,
  read: (source: string) => Syntax | undefined,
): Syntax | undefined {
  /** Where each CR LF's LF is in the text without CRs, in order. */
  const lineFeeds: number[] = [];
  for (let at = source.indexOf("\r"); at >= 0; at = source.indexOf("\r", at + 1)) {
    if (source.charCodeAt(at + 1) !== LINE_FEED) return undefined;
    lineFeeds.push(at - lineFeeds.length);
  }
  if (lineFeeds.length === 0) return read(source);
  const tree = read(source.replaceAll("\r\n", "\n"));
  if (!tree) return undefined;
  const original = (offset: number) => offset + countBelow(lineFeeds, offset);
  const root = { ...tree, start: 0, end: source.length, children: [] as Syntax[] };
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

const LINE_FEED = 0x0a;

/** How many of the ascending `values` are below `limit`. */
function countBelow(values: readonly number[], limit: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle] < limit) low = middle + 1;
    else high = middle;
  }
  return low;
}
