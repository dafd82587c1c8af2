/**
 * The shape every format has: an item is cut into segments (text with numbered placeholders for
 * inline markup and protected spans), the engine translates the segments, and the item is put
 * back together from their translations by source offset, so everything outside a translated
 * run comes back byte for byte.
 */
import type { PlaceholderSegment, RenderMarkup } from "./placeholders.ts";

/** Request fields that change how an item is cut. */
export interface CutOptions {
  /** The request's `mode` (selection, paragraph, webpage, subtitle, message, document). */
  mode: string;
  /** `options.preserve_formatting`: every line break and indentation kept in place. */
  preserveFormatting: boolean;
  /** How named tags are read (html: `ignore` only; xml: all). Absent: each format's default. */
  tags?: TagOptions;
  /**
   * The request's target language, for a format whose item names it (an XLIFF file's
   * `target-language`); never read to translate. Absent: the item is not told.
   */
  target?: string;
}

/**
 * The request's tag options (DeepL's `ignore_tags`, `splitting_tags`, `non_splitting_tags`,
 * `outline_detection`), read as XML names as written (HTML compares them in lower case).
 */
export interface TagOptions {
  /** Elements kept whole, content untranslated. */
  ignore: ReadonlySet<string>;
  /** Elements whose tags always end a sentence (xml). */
  splitting: ReadonlySet<string>;
  /** Elements whose tags never end a sentence (xml). */
  nonSplitting: ReadonlySet<string>;
  /**
   * Whether xml finds its outline: an element outside any text (its parent holds no text of
   * its own) is structure, its tags between sentences. Off: only `splitting` tags split.
   */
  outlineDetection: boolean;
}

/** The tag options of a request that names none. */
export const DEFAULT_TAG_OPTIONS: TagOptions = {
  ignore: new Set(),
  splitting: new Set(),
  nonSplitting: new Set(),
  outlineDetection: true,
};

/**
 * One segment's translation, rendered with the format's own markup. A format may re-render a
 * piece of markup (HTML renders a tag whose `alt` or `title` was translated); the default
 * renders the source bytes.
 */
export type RenderedSegment = (render?: RenderMarkup) => string;

/** An item cut into segments. */
export interface CutItem {
  /** In source order; segments that are not `translatable` are kept as they are. */
  segments: PlaceholderSegment[];
  /** Rebuilds the item from one rendered translation per segment, in order. */
  assemble(translated: readonly RenderedSegment[]): string;
  /**
   * The item is a text of its own (a whole subtitle file): its segments are one another's
   * context, never another item's.
   */
  standalone?: boolean;
  /**
   * Assembled with its own text, the item is not its source (an XLIFF file gains a target copying
   * each source): an item that needs no translation comes back so assembled, not as it was sent.
   */
  filled?: boolean;
}

/** A format of the `format` request field. */
export interface Format {
  /** Cuts an item into segments. Never throws: malformed input is kept as it is. */
  cut(text: string, options: CutOptions): CutItem;
}

/** A piece of an item replaced on assembly: [start, end) of the item, and what replaces it. */
export interface Splice {
  start: number;
  end: number;
  /** Index of the segment whose translation replaces the range. */
  segment: number;
}

/**
 * Builds the item from its source and non-overlapping splices (in source order): everything
 * outside a splice is the source, byte for byte.
 */
export function spliceItem(
  source: string,
  splices: readonly Splice[],
  translated: readonly string[],
): string {
  let output = "";
  let at = 0;
  for (const splice of splices) {
    output += source.slice(at, splice.start) + translated[splice.segment];
    at = splice.end;
  }
  return output + source.slice(at);
}

/**
 * Cuts `source` at the given [start, end) ranges (in order, not overlapping), one segment per
 * range built by `build`; the rest of the source is kept.
 */
export function cutRanges(
  source: string,
  ranges: readonly [number, number][],
  build: (text: string) => PlaceholderSegment,
): CutItem {
  const segments = ranges.map(([start, end]) => build(source.slice(start, end)));
  const splices = ranges.map(([start, end], segment) => ({ start, end, segment }));
  return {
    segments,
    assemble: (translated) => spliceItem(source, splices, translated.map((rendered) => rendered())),
  };
}

/** A part of an item cut on its own: [start, end) of the item and its cut. */
export interface CutPart {
  start: number;
  end: number;
  cut: CutItem;
}

/**
 * One cut from parts cut on their own (in source order, not overlapping): the segments in
 * order, each part rebuilt from its own, the rest of the source kept.
 */
export function combineCuts(source: string, parts: readonly CutPart[]): CutItem {
  // Loops, not flatMap and slices: a Markdown document is tens of parts of one segment each.
  let count = 0;
  for (const part of parts) count += part.cut.segments.length;
  const segments: PlaceholderSegment[] = new Array(count);
  count = 0;
  for (const part of parts) {
    for (const segment of part.cut.segments) segments[count++] = segment;
  }
  return {
    segments,
    assemble(translated) {
      let output = "";
      let at = 0;
      let next = 0;
      for (const { start, end, cut } of parts) {
        const count = cut.segments.length;
        const own = count === 1 ? [translated[next]] : translated.slice(next, next + count);
        output += source.slice(at, start) + cut.assemble(own);
        next += count;
        at = end;
      }
      return output + source.slice(at);
    },
  };
}
