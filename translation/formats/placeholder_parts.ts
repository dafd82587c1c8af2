/**
 * A segment's parts before they are numbered: text split at the spans to keep whole, tags that
 * do not pair up inside the segment made atoms, neighbouring atoms merged (placeholders.ts
 * numbers what is left).
 *
 * Pure: no I/O.
 */
import { looksLikePlaceholder, placeholderLookalikes } from "../../engines/placeholder_tokens.ts";
import type { Markup, SegmentPart, SpanFinder } from "./placeholders.ts";

/** An inline element's opening tag. */
export function open(markup: string, name: string): Markup {
  return { role: "open", markup, name };
}

/** An inline element's closing tag. */
export function close(markup: string, name: string): Markup {
  return { role: "close", markup, name };
}

/** Markup kept whole. */
export function atom(markup: string): Markup {
  return { role: "atom", markup };
}

/** Finds the matches of a global regular expression (`exec` in place: `matchAll` clones it). */
export function matchedSpans(pattern: RegExp): SpanFinder {
  return (text) => {
    const spans: [number, number][] = [];
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      spans.push([match.index, pattern.lastIndex]);
      if (match[0] === "") pattern.lastIndex++;
    }
    return spans;
  };
}

/**
 * `parts` without the white space and the references for it (`&#160;`, `&nbsp;`: `isSpace`) at
 * their edges, and the lengths of source cut off before and after: such a reference is an atom,
 * and a sentence sent as `<x1/>Hello` gave the engine a placeholder to move or drop for what is
 * only the space before it.
 */
export function withoutOuterSpace(
  parts: readonly SegmentPart[],
  isSpace: (reference: string) => boolean,
): { inner: readonly SegmentPart[]; before: number; after: number } {
  const outer = (part: SegmentPart) =>
    typeof part === "string"
      ? part.trim() === ""
      : part.role === "atom" && part.markup.startsWith("&") && isSpace(part.markup);
  const length = (part: SegmentPart) => typeof part === "string" ? part.length : part.markup.length;
  let first = 0;
  let last = parts.length;
  let before = 0;
  let after = 0;
  while (first < last && outer(parts[first])) before += length(parts[first++]);
  while (last > first && outer(parts[last - 1])) after += length(parts[--last]);
  const inner = first === 0 && last === parts.length ? parts : parts.slice(first, last);
  return { inner, before, after };
}

/** Splits `text` at the spans `find` returns: the spans become atoms (or `markupOf`'s markup). */
export function protectSpans(
  text: string,
  find: SpanFinder,
  markupOf: (span: string) => Markup = atom,
): SegmentPart[] {
  const parts: SegmentPart[] = [];
  let at = 0;
  for (const [start, end] of find(text).sort((a, b) => a[0] - b[0])) {
    if (start < at || end <= start) continue; // overlapping finds: the first one wins
    if (start > at) parts.push(text.slice(at, start));
    parts.push(markupOf(text.slice(start, end)));
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** Text parts split where they hold a placeholder lookalike or a span `find` protects. */
export function protectText(
  parts: readonly SegmentPart[],
  find: SpanFinder | undefined,
): readonly SegmentPart[] {
  const protects = (part: SegmentPart) =>
    typeof part === "string" && (find !== undefined || looksLikePlaceholder(part));
  // Most segments hold nothing to protect: their parts are used as they are.
  if (!parts.some(protects)) return parts;
  const across = find?.acrossMarkup === undefined ? [] : spansAcross(parts, find.acrossMarkup);
  let index = -1;
  const spans = (text: string) => {
    const own = [...placeholderLookalikes(text), ...(find?.(text) ?? [])];
    const won = across[index] ?? [];
    if (won.length === 0) return own;
    const overlaps = ([start, end]: [number, number]) =>
      won.some(([from, to]) => start < to && from < end);
    return [...won, ...own.filter((span) => !overlaps(span))];
  };
  return parts.flatMap((part, at) => {
    index = at;
    return protects(part) ? protectSpans(part as string, spans, find?.markupOf) : [part];
  });
}

/** Stands for a piece of markup in a segment's text read across its markup. */
const MARKUP_STAND_IN = "\uFFFC";

/**
 * The spans `find` finds over the text of `parts` read across their markup, cut to each text
 * part (by its index; none where there is no markup between text parts).
 */
function spansAcross(
  parts: readonly SegmentPart[],
  find: (text: string) => [number, number][],
): [number, number][][] {
  if (parts.filter((part) => typeof part === "string").length < 2) return [];
  let text = "";
  const starts: number[] = [];
  for (const part of parts) {
    starts.push(text.length);
    text += typeof part === "string" ? part : MARKUP_STAND_IN;
  }
  const found = find(text);
  if (found.length === 0) return [];
  return parts.map((part, index) => {
    if (typeof part !== "string") return [];
    const [from, to] = [starts[index], starts[index] + part.length];
    return found.filter(([start, end]) => start < to && from < end)
      .map((
        [start, end],
      ): [number, number] => [Math.max(start, from) - from, Math.min(end, to) - from]);
  });
}

/** Opens and closes that do not pair up, properly nested, inside the parts become atoms. */
export function pairUp(parts: readonly SegmentPart[]): readonly SegmentPart[] {
  /** Indexes of the opens not closed yet, innermost last. */
  const stack: number[] = [];
  let paired: Set<number> | undefined;
  let tags = 0;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index];
    if (typeof part === "string" || part.role === "atom") continue;
    tags++;
    if (part.role === "open") {
      stack.push(index);
      continue;
    }
    let match = stack.length - 1;
    while (match >= 0 && (parts[stack[match]] as Markup).name !== part.name) match--;
    if (match === -1) continue;
    // Opens above the match are left unclosed inside this segment: they stay atoms.
    (paired ??= new Set()).add(stack[match]).add(index);
    stack.length = match;
  }
  if (tags === (paired?.size ?? 0)) return parts;
  return parts.map((part, index) =>
    typeof part === "string" || part.role === "atom" || paired?.has(index) ? part : keptAtom(part)
  );
}

/**
 * An open or close kept as an atom that renders as the original: a render hook knows the
 * original (an unclosed `<span title="…">` is rendered with its translated title).
 */
function keptAtom(part: Markup): MergedAtom {
  return { role: "atom", markup: part.markup, members: [part] };
}

/** Neighbouring atoms become one: fewer placeholders for the engine to keep. */
export function mergeAtoms(parts: readonly SegmentPart[]): readonly SegmentPart[] {
  if (!parts.some(mergesOrDrops)) return parts;
  const merged: SegmentPart[] = [];
  // Each run of neighbouring atoms is merged once, when it ends: merging them two at a time
  // copied the members so far at every step, and a Markdown paragraph of 16,000 backslashes
  // (8,000 escapes, each an atom) took 60 ms, 32,000 took 550.
  let run: MergedAtom[] = [];
  const endRun = () => {
    if (run.length > 0) merged.push(run.length === 1 ? run[0] : mergedAtom(run));
    run = [];
  };
  for (const part of parts) {
    if (part === "") continue;
    if (typeof part !== "string" && part.role === "atom") {
      run.push(part);
      continue;
    }
    endRun();
    merged.push(part);
  }
  endRun();
  return merged;
}

/** Whether a part is empty text or an atom right after an atom: mergeAtoms has work. */
function mergesOrDrops(part: SegmentPart, index: number, parts: readonly SegmentPart[]) {
  if (part === "") return true;
  if (typeof part === "string" || part.role !== "atom" || index === 0) return false;
  const before = parts[index - 1];
  return typeof before !== "string" && before.role === "atom";
}

/** An atom merged from neighbouring ones (see {@link mergeAtoms}). */
export interface MergedAtom extends Markup {
  /** The original atoms, in order. */
  members?: Markup[];
}

/** Neighbouring atoms as one; rendering renders each, so a render hook still sees them all. */
function mergedAtom(atoms: readonly MergedAtom[]): MergedAtom {
  let markup = "";
  const members: Markup[] = [];
  for (const piece of atoms) {
    markup += piece.markup;
    if (piece.members === undefined) members.push(piece);
    else for (const member of piece.members) members.push(member);
  }
  return { role: "atom", markup, members };
}
