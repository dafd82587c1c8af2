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
import { textBetweenPlaceholders } from "../../engines/placeholder_tokens.ts";
import { mergeAtoms, type MergedAtom, pairUp, protectText } from "./placeholder_parts.ts";
import { joinRespelled, type Respell } from "./placeholder_respell.ts";

export { atom, close, matchedSpans, open, protectSpans } from "./placeholder_parts.ts";

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

/**
 * Finds spans of a text that must come back byte for byte, as [start, end) offsets.
 * `acrossMarkup` finds spans over a whole segment's text, each piece of markup in it standing as
 * one character (U+FFFC): an ICU message whose branches hold tags (`one {<b>#</b> file}`) is
 * whole in no one text part. What it finds wins over what the finder finds in each part.
 */
export type SpanFinder = ((text: string) => [number, number][]) & {
  acrossMarkup?: (text: string) => [number, number][];
  /**
   * The markup a found span becomes (default: an atom): a UI string's rich-text tags are opens
   * and closes, paired as an HTML element's tags are, so an engine moves them with their words.
   */
  markupOf?: (span: string) => Markup;
};

/** Options of {@link buildSegment}. */
export interface SegmentOptions {
  /** Finds further spans of the text to keep whole (message mode). */
  find?: SpanFinder;
  /**
   * Escapes translated text for its place (HTML text, a quoted attribute); applied to what the
   * engine wrote between placeholders, never to markup, and not when the text came back as it
   * was sent. `before` and `after` are the markup around the run (undefined at the segment's
   * ends): Markdown's `!` before a link's `[` or a run after a line break ask for more.
   */
  escape?: Escape;
  /**
   * How the engine reads a text part written in the source (HTML's `caf&eacute;` is `café`):
   * the engine and the fallback get what it returns; a segment that comes back as it was read
   * is put back as it was written, one that changed is escaped as it reads. Must keep white
   * space as written (outer white space is cut off and restored by length). Default: as written.
   */
  decode?: (written: string) => string;
  /**
   * Writes an open/close pair otherwise where a changed translation put it (Markdown's `_` glued
   * to letters). Default: as rendered.
   */
  respell?: Respell;
  /**
   * Whether the format takes a translation whose placeholders came back: given the text before,
   * between and after them as the engine wrote it, and the markup between. One it refuses is
   * put back by the fallback, as a translation that lost placeholders is (a subtitle cue's
   * answer that would leave a line empty, and so end the cue). Default: every one.
   */
  accepts?: (between: readonly string[], markups: readonly string[]) => boolean;
}

/**
 * A translation whose placeholders came back exactly once each, in order: the text between
 * them. Checking and rendering are apart so a segment is checked once and rendered later (an
 * HTML tag renders with its translated attributes, known only when every segment is back).
 */
export interface MatchedTranslation {
  /** The text before, between and after the placeholders (one more than the placeholders). */
  between: string[];
  /** The translation is the segment's text as sent: it is put back as written. */
  asSent: boolean;
}

/** Escapes a translated run for its place, knowing the markup around it. */
export type Escape = (text: string, before?: string, after?: string) => string;

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
  /**
   * The tokens of {@link text} that stand for escaped characters (Markdown's `\_` reads as `_`,
   * `\_\_` as `__`), with those characters; undefined when there are none.
   */
  readonly escapedCharacters: Readonly<Record<string, string>> | undefined;
}

const HAS_LETTER = /\p{L}/u;
/**
 * Backslash escapes, CommonMark's, of ASCII punctuation characters: one (`\_`) or a run of them
 * kept as one atom (`\_\_` of `\_\_init\_\_`).
 */
const ESCAPES = /^(?:\\[!-\/:-@[-`{-~])+$/;

/**
 * Builds a segment. Opens and closes pair by `name` when properly nested inside the segment;
 * any other open or close becomes an atom. Text that could be read as a placeholder token is
 * an atom too, so a source can never forge one. `find` protects further spans of the text.
 */
export function buildSegment(
  parts: readonly SegmentPart[],
  options: SegmentOptions = {},
): PlaceholderSegment {
  const { find, escape = unescaped, decode = unescaped, respell, accepts } = options;
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
  /** Some text part reads otherwise than it is written. */
  let decoded = false;
  for (let index = 0; index < flat.length; index++) {
    const part = flat[index];
    if (typeof part === "string") {
      const read = decode(part);
      if (read !== part) decoded = true;
      withTokens += read;
      const body = read.trim();
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
  // A segment that is one address and nothing else (a link whose text is its URL) is kept:
  // an engine has nothing to translate in it, and a model may well change it.
  if (markupCount === 0 && runs !== undefined && isAddressOnly(withTokens)) runs = undefined;
  const reads = decoded ? decode : undefined;
  return new Segment(
    flat,
    tokens,
    markups,
    runs ?? [],
    withTokens,
    escape,
    reads,
    respell,
    accepts,
  );
}

const ADDRESS_ONLY =
  /^\s*(?:(?:(?:https?|ftp):\/\/|www\.)[^\s<>"]+|[\w.%+-]+@[\w-]+(?:\.[\w-]+)+)\s*$/;

/** Whether a text is one URL or e-mail address, white space around it aside. */
export function isAddressOnly(text: string): boolean {
  return (text.includes("://") || text.includes("www.") || text.includes("@")) &&
    ADDRESS_ONLY.test(text);
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
    private readonly escape: Escape,
    /** How text parts read, when some part reads otherwise than written; else undefined. */
    private readonly decode: ((written: string) => string) | undefined,
    private readonly respell: Respell | undefined,
    private readonly accepts: SegmentOptions["accepts"],
  ) {
    this.text = withTokens.trim();
    this.translatable = runs.length > 0;
    this.#lead = withTokens.slice(0, withTokens.length - withTokens.trimStart().length);
    this.#trail = withTokens.slice(this.#lead.length + this.text.length);
  }

  get escapedCharacters(): Readonly<Record<string, string>> | undefined {
    let characters: Record<string, string> | undefined;
    this.markups.forEach(({ role, markup }, index) => {
      if (role === "atom" && ESCAPES.test(markup)) {
        (characters ??= {})[this.tokens[index]] = markup.replace(/\\(.)/g, "$1");
      }
    });
    return characters;
  }

  get source(): string {
    return this.parts.map((part) => typeof part === "string" ? part : part.markup).join("");
  }

  match(translated: string): MatchedTranslation | undefined {
    const between = textBetweenPlaceholders(this.tokens, translated);
    if (!between) return undefined;
    const asSent = translated === this.text;
    if (!asSent && this.accepts && !this.accepts(between, this.markups.map(markupText))) {
      return undefined;
    }
    return { between, asSent };
  }

  restoreMatched({ between, asSent }: MatchedTranslation, render?: RenderMarkup): string {
    // As sent, the text comes back as written; else all of it is escaped, the runs the engine
    // left alone too: escaping only the changed ones could split what belongs together across
    // placeholders (Markdown's `[` in one run and its `]` in the next, inside link text).
    const runs = !asSent
      ? between.map((run, i) =>
        this.escape(run, this.markups[i - 1]?.markup, this.markups[i]?.markup)
      )
      : this.decode === undefined
      ? between
      : this.#runsAsWritten();
    if (asSent || this.respell === undefined) {
      let body = this.#lead + runs[0];
      for (let i = 0; i < this.markups.length; i++) {
        body += renderMarkup(this.markups[i], render) + runs[i + 1];
      }
      return body + this.#trail;
    }
    const pieces = [this.#lead + runs[0]];
    const marks: [number, Markup][] = [];
    for (let i = 0; i < this.markups.length; i++) {
      marks.push([pieces.length, this.markups[i]]);
      pieces.push(renderMarkup(this.markups[i], render), runs[i + 1]);
    }
    pieces[pieces.length - 1] += this.#trail;
    return joinRespelled(pieces, marks, this.respell);
  }

  /** The text before, between and after the markup as written, outer white space cut off. */
  #runsAsWritten(): string[] {
    const written = [""];
    for (const part of this.parts) {
      if (typeof part === "string") written[written.length - 1] += part;
      else written.push("");
    }
    // Outer white space is written as it reads (decode keeps it), so it is cut by length.
    const last = written.length - 1;
    written[0] = written[0].slice(this.#lead.length);
    written[last] = written[last].slice(0, written[last].length - this.#trail.length);
    return written;
  }

  restore(translated: string, render?: RenderMarkup): string | undefined {
    const matched = this.match(translated);
    return matched && this.restoreMatched(matched, render);
  }

  fromRuns(translated: readonly string[], render?: RenderMarkup): string {
    // As in restoreMatched: all as written when every run came back as sent, else all escaped
    // as it reads (the text between the runs too).
    const asSent = this.runs.every((run, index) => translated[index] === run);
    let next = 0;
    const pieces: string[] = [];
    const marks: [number, Markup][] = [];
    for (let index = 0; index < this.parts.length; index++) {
      const part = this.parts[index];
      if (typeof part !== "string") {
        marks.push([pieces.length, part]);
        pieces.push(renderMarkup(part, render));
        continue;
      }
      if (asSent) {
        pieces.push(part);
        continue;
      }
      const read = this.decode === undefined ? part : this.decode(part);
      const body = read.trim();
      const around = [markupOf(this.parts[index - 1]), markupOf(this.parts[index + 1])] as const;
      if (!HAS_LETTER.test(body)) {
        pieces.push(this.escape(read, ...around));
        continue;
      }
      const before = read.slice(0, read.length - read.trimStart().length);
      pieces.push(
        before + this.escape(translated[next++], ...around) +
          read.slice(before.length + body.length),
      );
    }
    if (asSent || this.respell === undefined) return pieces.join("");
    return joinRespelled(pieces, marks, this.respell);
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

function markupText(markup: Markup): string {
  return markup.markup;
}

/** A part's markup; undefined for text or no part. */
function markupOf(part: SegmentPart | undefined): string | undefined {
  return part === undefined || typeof part === "string" ? undefined : part.markup;
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
