/**
 * Emphasis, strong and strikethrough for the own Markdown scanner's inline pass
 * (markdown_scan_inline.ts), from the runs of `*`, `_` and `~` it found. Without `~`, as
 * micromark pairs emphasis: each run that may close, left to right, takes the nearest earlier run
 * of its marker that may open and the rule of three allows, two markers from each when both have
 * two, and what lies between is inside (runs there are text); with cmark's `openers_bottom` stops
 * (as translation/formats/markdown_micromark_pairing.ts), so text that pairs nothing is read in
 * linear time. With `~`, micromark pairs strikethrough and emphasis in two passes, in the order
 * the paragraph first uses them: only the simple nesting is read here, the rest declines.
 */
import { DECLINE } from "./markdown_marked_lexer.ts";
import type { Syntax } from "./markdown_syntax.ts";
import { filled, node } from "./markdown_scan_nodes.ts";

/** A run of `*`, `_` or `~` that may open or close, until resolved. */
export interface Delimiter extends Syntax {
  type: "delimiter";
  marker: number;
  open: boolean;
  close: boolean;
}

/** What the inline pass hands over: syntax, and runs not yet paired. */
export type Item = Syntax | Delimiter;

const TILDE = 126;

/**
 * The syntax of `items` with their runs paired; `inLink`: link text, where a run left unpaired
 * declines (micromark's label end and the runs around the link read it otherwise).
 */
export function resolve(items: readonly Item[], inLink: boolean): Syntax[] {
  const paired = withoutLoneTildes(items);
  const withTilde = paired.some((item) => isDelimiter(item) && item.marker === TILDE);
  return withTilde ? pairNested(paired, inLink) : pairEmphasis(paired, inLink);
}

/**
 * `items` without the `~` runs no other run has the size of: micromark pairs a strikethrough
 * run only with one of its size, so such a run is text whatever it may open or close (`"~/x"`,
 * `about ~100`).
 */
function withoutLoneTildes(items: readonly Item[]): readonly Item[] {
  const sizes = new Map<number, number>();
  for (const item of items) {
    if (isDelimiter(item) && item.marker === TILDE) {
      sizes.set(size(item), (sizes.get(size(item)) ?? 0) + 1);
    }
  }
  if (sizes.size === 0 || [...sizes.values()].every((count) => count > 1)) return items;
  return items.filter((item) =>
    !isDelimiter(item) || item.marker !== TILDE || sizes.get(size(item))! > 1
  );
}

function isDelimiter(item: Item): item is Delimiter {
  return item.type === "delimiter";
}

function size(delimiter: Delimiter): number {
  return delimiter.end - delimiter.start;
}

/** micromark's pairing of `*` and `_` runs (its `resolveAllAttention`), in linear time. */
function pairEmphasis(items: readonly Item[], inLink: boolean): Syntax[] {
  const out: Item[] = [];
  /** Where in `out` the runs that may still open are, in order. */
  const openers: number[] = [];
  /** Per kind of closer, the count of openers below which none pairs with one. */
  const stops = new Map<number, number>();
  for (const item of items) {
    if (!isDelimiter(item)) {
      out.push(item);
      continue;
    }
    const closer = { ...item };
    while (closer.close && size(closer) > 0) {
      const kind = closer.marker * 8 + (closer.open ? 4 : 0) + size(closer) % 3;
      const found = nearestOpener(out, openers, closer, stops.get(kind) ?? 0);
      if (found < 0) {
        stops.set(kind, openers.length);
        break;
      }
      const at = openers[found];
      const opener = out[at] as Delimiter;
      const use = size(opener) > 1 && size(closer) > 1 ? 2 : 1;
      const type = use === 2 ? "strong" : "emphasis";
      // micromark pairs what lies between again, alone: a run shrunk by an earlier pairing may
      // pair inside now (`_**b****a*_`: `**b**` once `*a*` took one `*`).
      const inside = pairEmphasis(out.splice(at + 1), false);
      const text = node(
        `${type}Text`,
        opener.end,
        closer.start,
        filled(inside, opener.end, closer.start),
      );
      const group = node(type, opener.end - use, closer.start + use, [text]);
      opener.end -= use;
      closer.start += use;
      // The openers above this one are inside the group now; it stays if markers are left.
      openers.length = found;
      if (size(opener) > 0) openers.push(at);
      else out.pop();
      out.push(group);
      for (const [kind, stop] of stops) if (stop > found) stops.set(kind, found);
    }
    if (size(closer) === 0) continue;
    if (closer.open) {
      openers.push(out.length);
      out.push(closer);
    } else if (closer.close && inLink) throw DECLINE;
  }
  if (inLink && openers.length > 0) throw DECLINE;
  return out.filter((item) => !isDelimiter(item)) as Syntax[];
}

/** The place in `openers` of the nearest opener `closer` may pair with, not below `stop`; -1. */
function nearestOpener(
  out: readonly Item[],
  openers: readonly number[],
  closer: Delimiter,
  stop: number,
): number {
  const closeSize = size(closer);
  for (let index = openers.length - 1; index >= stop; index--) {
    const opener = out[openers[index]] as Delimiter;
    if (opener.marker !== closer.marker) continue;
    // If the opening can close or the closing can open, and the close size is not a multiple
    // of three, but the sum of the sizes is: no match (micromark's rule of three).
    if ((opener.close || closer.open) && closeSize % 3 && !((size(opener) + closeSize) % 3)) {
      continue;
    }
    return index;
  }
  return -1;
}

/**
 * With `~` runs: an opener pairs with the next closer of the same marker and size. Anything
 * where micromark would look further (a closer of another marker or size on top, a run that may
 * both open and close, a `*` or `_` run of three or more, leftovers inside link text) declines.
 */
function pairNested(items: readonly Item[], inLink: boolean): Syntax[] {
  const out: Item[] = [];
  const openers: number[] = [];
  for (const item of items) {
    if (!isDelimiter(item)) {
      out.push(item);
      continue;
    }
    if ((item.open && item.close) || (item.marker !== TILDE && size(item) > 2)) throw DECLINE;
    if (item.close && openers.length > 0) {
      const at = openers.pop()!;
      const opener = out[at] as Delimiter;
      if (opener.marker !== item.marker || size(opener) !== size(item)) throw DECLINE;
      const type = item.marker === TILDE
        ? "strikethrough"
        : size(item) === 1
        ? "emphasis"
        : "strong";
      const inner = filled(out.splice(at + 1) as Syntax[], opener.end, item.start);
      out.pop();
      out.push(
        node(type, opener.start, item.end, [node(`${type}Text`, opener.end, item.start, inner)]),
      );
      continue;
    }
    if (item.close && inLink) throw DECLINE;
    if (item.open) {
      openers.push(out.length);
      out.push(item);
    }
  }
  if (openers.length > 0 && inLink) throw DECLINE;
  return out.filter((item) => !isDelimiter(item)) as Syntax[];
}
