/** Syntax nodes as the own Markdown scanner builds them, and its text blocks before them. */
import type { Syntax } from "./markdown_syntax.ts";

/** A text block before its inline pass: [start, end) and where each further line begins. */
export interface TextBlock {
  start: number;
  end: number;
  lineStarts: number[];
  /** A task list item's `[ ]` at `start`. */
  check: boolean;
}

/** The children of a leaf, shared: most inline nodes are leaves, and nothing adds to them. */
const NO_CHILDREN = Object.freeze([]) as unknown as Syntax[];

/** A node of `type` over [start, end). */
export function node(type: string, start: number, end: number, children = NO_CHILDREN): Syntax {
  return { type, start, end, children };
}

/** Nodes with the gaps between them (and to [start, end)) filled with text. */
export function filled(nodes: readonly Syntax[], start: number, end: number): Syntax[] {
  const out: Syntax[] = [];
  let at = start;
  for (const own of nodes) {
    if (own.start > at) out.push(node("data", at, own.start));
    out.push(own);
    at = own.end;
  }
  if (at < end) out.push(node("data", at, end));
  return out;
}
