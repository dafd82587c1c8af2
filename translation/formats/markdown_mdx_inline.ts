/**
 * MDX's comments and expressions in prose whose inside CommonMark reads as syntax (a comment
 * `{/*a*b` closed by a star, slash and brace: `*a*` is emphasis; ``{`Bearer ${token}`}``: a code
 * span): MDX reads the braces first, so each is
 * kept whole, one placeholder, not `{<x1/>}` with braces an engine could move apart or its
 * words sent. One held by text alone is found as text's spans are (markdown_extensions.ts).
 *
 * Pure: no I/O.
 */
import { MDX_INLINE } from "./markdown_extensions.ts";
import type { Syntax } from "./markdown_syntax.ts";

/** The syntax an MDX comment or expression over other syntax becomes: kept whole. */
export const MDX_SPAN = "mdxSpan";

/**
 * `nodes` (a run of inline syntax) with each MDX comment or expression that opens in their text
 * and reaches over other syntax as one {@link MDX_SPAN} node, the text around it cut at its
 * ends. One that ends inside other syntax (a code span or emphasis opened in a comment and
 * closed after it) is kept whole up to that syntax's end: MDX reads the comment first, and the
 * rest of the syntax, read otherwise by MDX, comes back as written rather than as CommonMark
 * paired it.
 */
export function withMdxSpans(
  nodes: readonly Syntax[],
  source: string,
  isText: (node: Syntax) => boolean,
): readonly Syntax[] {
  if (nodes.length < 2) return nodes;
  const last = nodes.at(-1)!.end;
  let kept: Syntax[] | undefined;
  for (let index = 0; index < nodes.length; index++) {
    let node = nodes[index];
    let brace = opensIn(node, isText) ? braceIn(source, node) : -1;
    while (brace !== -1) {
      MDX_INLINE.lastIndex = brace;
      const end = MDX_INLINE.exec(source) === null ? -1 : MDX_INLINE.lastIndex;
      const to = end > node.end && end <= last ? reach(nodes, index, end, isText) : -1;
      if (to === -1) {
        brace = braceIn(source, node, brace + 1);
        continue;
      }
      // Ending inside other syntax, the span takes that syntax whole.
      const keptEnd = isText(nodes[to]) ? end : Math.max(end, nodes[to].end);
      kept ??= nodes.slice(0, index);
      if (brace > node.start) kept.push({ ...node, end: brace });
      kept.push({ type: MDX_SPAN, start: brace, end: keptEnd, children: [] });
      // The text it ends in is read on from its end (empty where it ends with a node).
      index = to;
      node = { ...nodes[to], start: keptEnd };
      brace = opensIn(nodes[to], isText) ? braceIn(source, node) : -1;
    }
    if (kept !== undefined && node.start < node.end) kept.push(node);
  }
  return kept ?? nodes;
}

/** Whether a `{` in a node may open MDX syntax: in text, not an escaped `\{`. */
function opensIn(node: Syntax, isText: (node: Syntax) => boolean): boolean {
  return isText(node) && node.type !== "characterEscape";
}

/** The first `{` in a node's source from `from`, or -1. */
function braceIn(source: string, node: Syntax, from = node.start): number {
  const at = source.indexOf("{", from);
  return at !== -1 && at < node.end ? at : -1;
}

/**
 * The index of the node a span from the text node `index` to `end` ends in, when it reaches over
 * other syntax and ends in text or at a node's end, or ends inside other syntax; else -1.
 */
function reach(
  nodes: readonly Syntax[],
  index: number,
  end: number,
  isText: (node: Syntax) => boolean,
): number {
  let over = false;
  for (let next = index + 1; next < nodes.length; next++) {
    const node = nodes[next];
    if (node.end < end) {
      over ||= !isText(node);
      continue;
    }
    if (node.end === end) return over || !isText(node) ? next : -1;
    if (!isText(node)) return node.start < end ? next : -1;
    return over && node.start < end ? next : -1;
  }
  return -1;
}
