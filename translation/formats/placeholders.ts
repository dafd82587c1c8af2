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

/**
 * A translation whose placeholders came back exactly once each, in order: the text between
 * them. Checking and rendering are apart so a segment is checked once and rendered later (an
 * HTML tag renders with its translated attributes, known only when every segment is back).
 */
export interface MatchedTranslation {
  /** The text before, between and after the placeholders (one more than the placeholders). */
  between: string[];
  /** The translation is the segment's text as sent: nothing is escaped. */
  asSent: boolean;
}

/** A segment ready for an engine, and the ways to put its translation back. */
export interface PlaceholderSegment {
  /** What the engine translates: the parts with markup as placeholders, outer space trimmed. */
  text: string;
  /** False when nothing outside the markup has a letter: the segment is kept as it is. */
  translatable: boolean;
  /** The source of the whole segment (outer space included), as {@link restore} would give it. */
  readonly source: string;
  /** Text runs between markup that the fallback sends, one by one. */
  runs: string[];
  /** The translation's text between placeholders; undefined when they did not come back. */
  match(translated: string): MatchedTranslation | undefined;
  /** A {@link match}ed translation with every placeholder back to its markup. */
  restoreMatched(matched: MatchedTranslation, render?: RenderMarkup): string;
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
  const { find, escape = unescaped } = options;
  const flat = mergeAtoms(pairUp(protectText(parts, find)));
  let markupCount = 0;
  for (let index = 0; index < flat.length; index++) {
    if (typeof flat[index] !== "string") markupCount++;
  }
  // Arrays of the size needed, made only when needed: most segments have one text part and no
  // markup, and an array grown by `push` starts with room for 16.
  const tokens: string[] = markupCount === 0 ? NONE : new Array(markupCount);
  const markups: Markup[] = markupCount === 0 ? NONE : new Array(markupCount);
  /** Bodies of the text parts that hold a letter: what the fallback sends. */
  let runs: string[] | undefined;
  let next = 1;
  let withTokens = "";
  let markup = 0;
  /** The numbers of the opens not closed yet. */
  let opened: number[] | undefined;
  for (let index = 0; index < flat.length; index++) {
    const part = flat[index];
    if (typeof part === "string") {
      withTokens += part;
      const body = part.trim();
      if (HAS_LETTER.test(body)) {
        if (runs === undefined) runs = [body];
        else runs.push(body);
      }
      continue;
    }
    // Opens and atoms are numbered in order; a close takes its open's number (after pairUp,
    // opens and closes nest properly, so the open is the last one not closed).
    let token: string;
    if (part.role === "atom") token = placeholderToken(next++, "atom");
    else if (part.role === "open") {
      (opened ??= []).push(next);
      token = placeholderToken(next++, "open");
    } else token = placeholderToken(opened!.pop()!, "close");
    tokens[markup] = token;
    markups[markup++] = part;
    withTokens += token;
  }
  return new Segment(flat, tokens, markups, runs ?? [], withTokens, escape);
}

/** The tokens and markup of a segment without any, shared (never written: frozen). */
const NONE: never[] = Object.freeze([]) as never[];

/** A built segment: plain fields and shared methods, no closures per segment. */
class Segment implements PlaceholderSegment {
  readonly text: string;
  readonly translatable: boolean;
  /** White space around the text, put back on restore. */
  readonly #lead: string;
  readonly #trail: string;

  constructor(
    /** The parts after pairing and merging: strings and markup, in order. */
    private readonly parts: readonly SegmentPart[],
    /** The placeholder tokens in order, and the markup each stands for. */
    private readonly tokens: readonly string[],
    private readonly markups: readonly Markup[],
    readonly runs: string[],
    withTokens: string,
    private readonly escape: (text: string) => string,
  ) {
    this.text = withTokens.trim();
    this.translatable = runs.length > 0;
    this.#lead = withTokens.slice(0, withTokens.length - withTokens.trimStart().length);
    this.#trail = withTokens.slice(this.#lead.length + this.text.length);
  }

  get source(): string {
    return this.parts.map((part) => typeof part === "string" ? part : part.markup).join("");
  }

  match(translated: string): MatchedTranslation | undefined {
    const between = textBetweenPlaceholders(this.tokens, translated);
    return between && { between, asSent: translated === this.text };
  }

  restoreMatched({ between, asSent }: MatchedTranslation, render?: RenderMarkup): string {
    const text = asSent ? unescaped : this.escape;
    let body = this.#lead + text(between[0]);
    for (let i = 0; i < this.markups.length; i++) {
      body += renderMarkup(this.markups[i], render) + text(between[i + 1]);
    }
    return body + this.#trail;
  }

  restore(translated: string, render?: RenderMarkup): string | undefined {
    const matched = this.match(translated);
    return matched && this.restoreMatched(matched, render);
  }

  fromRuns(translated: readonly string[], render?: RenderMarkup): string {
    let next = 0;
    let output = "";
    for (const part of this.parts) {
      if (typeof part !== "string") {
        output += renderMarkup(part, render);
        continue;
      }
      const body = part.trim();
      if (!HAS_LETTER.test(body)) {
        output += part;
        continue;
      }
      const run = translated[next++];
      const before = part.slice(0, part.length - part.trimStart().length);
      output += before + (run === body ? run : this.escape(run)) +
        part.slice(before.length + body.length);
    }
    return output;
  }
}

/** The tokens of the first placeholders, built once: most segments use only these. */
const COMMON_TOKENS = Array.from({ length: 32 }, (_, i) => ({
  atom: `<x${i}/>`,
  open: `<x${i}>`,
  close: `</x${i}>`,
}));

function placeholderToken(number: number, role: Markup["role"]): string {
  if (number < COMMON_TOKENS.length) return COMMON_TOKENS[number][role];
  return role === "atom" ? `<x${number}/>` : role === "open" ? `<x${number}>` : `</x${number}>`;
}

function unescaped(text: string): string {
  return text;
}

/**
 * A piece of markup as it comes back: its source bytes, or what `render` makes of it; a merged
 * atom renders each of its originals, so a render hook still sees those.
 */
function renderMarkup(markup: Markup, render: RenderMarkup | undefined): string {
  const members = (markup as MergedAtom).members;
  if (render === undefined) return markup.markup;
  if (members === undefined) return render(markup);
  let output = "";
  for (const member of members) output += render(member);
  return output;
}

/** Text parts split where they hold a placeholder lookalike or a span `find` protects. */
function protectText(
  parts: readonly SegmentPart[],
  find: SpanFinder | undefined,
): readonly SegmentPart[] {
  const protects = (part: SegmentPart) =>
    typeof part === "string" && (find !== undefined || looksLikePlaceholder(part));
  // Most segments hold nothing to protect: their parts are used as they are.
  if (!parts.some(protects)) return parts;
  const spans = (text: string) => [...placeholderLookalikes(text), ...(find?.(text) ?? [])];
  return parts.flatMap((part) => protects(part) ? protectSpans(part as string, spans) : [part]);
}

/** Opens and closes that do not pair up, properly nested, inside the parts become atoms. */
function pairUp(parts: readonly SegmentPart[]): readonly SegmentPart[] {
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
    typeof part === "string" || part.role === "atom" || paired?.has(index)
      ? part
      : atom(part.markup)
  );
}

/** Neighbouring atoms become one: fewer placeholders for the engine to keep. */
function mergeAtoms(parts: readonly SegmentPart[]): readonly SegmentPart[] {
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
interface MergedAtom extends Markup {
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
