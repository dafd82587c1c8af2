/**
 * Inline markup and protected spans ↔ numbered placeholders, and the way back.
 *
 * A segment is built from parts: text to translate, and markup the engine must keep (an inline
 * element's opening and closing tags, or an atom kept whole: a lone tag, an entity, a URL in a
 * message, a glossary term). The engine sees `Read <x1>the guide</x1> at <x2/>.`; after the
 * engine, {@link PlaceholderSegment.restore} puts every piece of markup back byte for byte, or
 * refuses when a placeholder was dropped, duplicated, invented or moved.
 *
 * When a model cannot keep placeholders (the built-in engine has no word alignments), the
 * fallback translates the text runs between the markup one by one and keeps every piece of
 * markup in its place: sentences may read less well, no tag is ever dropped or duplicated.
 *
 * Pure: no I/O.
 *
 * @example
 * ```ts
 * const segment = buildSegment(["Read ", open("<a href=x>", "a1"), "the guide",
 *   close("</a>", "a1"), "."]);
 * segment.text; // "Read <x1>the guide</x1>."
 * segment.restore("Lisez <x1>le guide</x1>."); // "Lisez <a href=x>le guide</a>."
 * ```
 */
import {
  looksLikePlaceholder,
  placeholderLookalikes,
  textBetweenPlaceholders,
} from "../../engines/placeholder_tokens.ts";

/** Markup the engine must keep. */
export interface Markup {
  /** `open`/`close`: an inline element's tags, paired by `name`; `atom`: kept whole. */
  role: "open" | "close" | "atom";
  /** The exact source bytes. */
  markup: string;
  /** Pairs an `open` with its `close` (unique per element); unused for atoms. */
  name?: string;
}

/** A part of a segment: text to translate, or markup to keep. */
export type SegmentPart = string | Markup;

/** Renders a piece of markup on the way back (default: its source bytes). */
export type RenderMarkup = (markup: Markup) => string;

/** Finds spans of a text that must come back byte for byte, as [start, end) offsets. */
export type SpanFinder = (text: string) => [number, number][];

/** Options of {@link buildSegment}. */
export interface SegmentOptions {
  /** Finds further spans of the text to keep whole (message mode). */
  find?: SpanFinder;
  /**
   * Escapes translated text for its place (HTML text, a quoted attribute); applied to what the
   * engine wrote between placeholders, never to markup, and not when the text came back as it
   * was sent.
   */
  escape?: (text: string) => string;
}

/** A segment ready for an engine, and the ways to put its translation back. */
export interface PlaceholderSegment {
  /** What the engine translates: the parts with markup as placeholders, outer space trimmed. */
  text: string;
  /** False when nothing outside the markup has a letter: the segment is kept as it is. */
  translatable: boolean;
  /** The source of the whole segment (outer space included), as {@link restore} would give it. */
  source: string;
  /** Text runs between markup that the fallback sends, one by one. */
  runs: string[];
  /**
   * The translation with every placeholder back to its markup, outer space restored; undefined
   * when the placeholders did not come back exactly once each, in order.
   */
  restore(translated: string, render?: RenderMarkup): string | undefined;
  /** The fallback: rebuilds the segment from translated {@link runs}, markup in place. */
  fromRuns(translated: readonly string[], render?: RenderMarkup): string;
}

const HAS_LETTER = /\p{L}/u;

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

/** Splits `text` at the spans `find` returns: the spans become atoms. */
export function protectSpans(text: string, find: SpanFinder): SegmentPart[] {
  const parts: SegmentPart[] = [];
  let at = 0;
  for (const [start, end] of find(text).sort((a, b) => a[0] - b[0])) {
    if (start < at || end <= start) continue; // overlapping finds: the first one wins
    if (start > at) parts.push(text.slice(at, start));
    parts.push(atom(text.slice(start, end)));
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/**
 * Builds a segment. Opens and closes pair by `name` when properly nested inside the segment;
 * any other open or close becomes an atom. Text that could be read as a placeholder token is
 * an atom too, so a source can never forge one. `find` protects further spans of the text.
 */
export function buildSegment(
  parts: readonly SegmentPart[],
  options: SegmentOptions = {},
): PlaceholderSegment {
  const { find, escape = (text: string) => text } = options;
  const spans = (text: string) => [...placeholderLookalikes(text), ...(find?.(text) ?? [])];
  const flat = mergeAtoms(pairUp(parts.flatMap((part) => {
    if (typeof part !== "string") return [part];
    return find || looksLikePlaceholder(part) ? protectSpans(part, spans) : [part];
  })));
  /** The tokens in order, and the markup each stands for. */
  const tokens: string[] = [];
  const markups: Markup[] = [];
  const opened = new Map<string, number>();
  let next = 1;
  let withTokens = "";
  for (const part of flat) {
    if (typeof part === "string") {
      withTokens += part;
      continue;
    }
    let number: number;
    if (part.role === "close") number = opened.get(part.name!)!;
    else {
      number = next++;
      if (part.role === "open") opened.set(part.name!, number);
    }
    const token = part.role === "atom"
      ? `<x${number}/>`
      : part.role === "open"
      ? `<x${number}>`
      : `</x${number}>`;
    tokens.push(token);
    markups.push(part);
    withTokens += token;
  }
  const [lead, core, trail] = outerSpace(withTokens);
  const runs = flat.filter((part): part is string => typeof part === "string");
  const translatable = runs.some((run) => HAS_LETTER.test(run));
  const plain: RenderMarkup = (markup) => markup.markup;
  // A merged atom renders each of its originals, so a render hook still sees those.
  const each = (render: RenderMarkup): RenderMarkup => (markup) =>
    membersOf(markup).map(render).join("");

  return {
    text: core,
    translatable,
    source: flat.map((part) => typeof part === "string" ? part : part.markup).join(""),
    runs: runs.map((run) => outerSpace(run)[1]).filter((body) => HAS_LETTER.test(body)),
    restore(translated, render = plain) {
      const between = textBetweenPlaceholders(tokens, translated);
      if (between === undefined) return undefined;
      const text = translated === core ? (piece: string) => piece : escape;
      let body = text(between[0]);
      markups.forEach((markup, i) => body += each(render)(markup) + text(between[i + 1]));
      return lead + body + trail;
    },
    fromRuns(translated, render = plain) {
      let next = 0;
      return flat.map((part) => {
        if (typeof part !== "string") return each(render)(part);
        const [before, body, after] = outerSpace(part);
        if (!HAS_LETTER.test(body)) return part;
        const run = translated[next++];
        return before + (run === body ? run : escape(run)) + after;
      }).join("");
    },
  };
}

/** `text` as [leading white space, the rest, trailing white space] (`trim`'s white space). */
function outerSpace(text: string): [string, string, string] {
  const started = text.trimStart();
  const core = started.trimEnd();
  return [text.slice(0, text.length - started.length), core, started.slice(core.length)];
}

/** Opens and closes that do not pair up, properly nested, inside the parts become atoms. */
function pairUp(parts: readonly SegmentPart[]): SegmentPart[] {
  const result = [...parts];
  const stack: number[] = [];
  const paired = new Set<number>();
  result.forEach((part, index) => {
    if (typeof part === "string" || part.role === "atom") return;
    if (part.role === "open") {
      stack.push(index);
      return;
    }
    const match = stack.findLastIndex((at) => (result[at] as Markup).name === part.name);
    if (match === -1) return;
    // Opens above the match are left unclosed inside this segment: they stay atoms.
    const opening = stack[match];
    stack.length = match;
    paired.add(opening).add(index);
  });
  return result.map((part, index) =>
    typeof part === "string" || part.role === "atom" || paired.has(index) ? part : atom(part.markup)
  );
}

/** Neighbouring atoms become one: fewer placeholders for the engine to keep. */
function mergeAtoms(parts: readonly SegmentPart[]): SegmentPart[] {
  const merged: SegmentPart[] = [];
  for (const part of parts) {
    if (part === "") continue;
    const last = merged.at(-1);
    if (
      typeof part !== "string" && part.role === "atom" && last !== undefined &&
      typeof last !== "string" && last.role === "atom"
    ) {
      merged[merged.length - 1] = mergedAtom(last, part);
    } else merged.push(part);
  }
  return merged;
}

/** Two atoms as one; rendering renders both, so a render hook still sees each original. */
function mergedAtom(first: Markup, second: Markup): Markup {
  const members = [...membersOf(first), ...membersOf(second)];
  const merged: Markup & { members: Markup[] } = {
    role: "atom",
    markup: first.markup + second.markup,
    members,
  };
  return merged;
}

function membersOf(markup: Markup): Markup[] {
  return (markup as Markup & { members?: Markup[] }).members ?? [markup];
}
