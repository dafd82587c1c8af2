/**
 * `format: "text"`: what of a plain-text item goes to an engine, by mode.
 *
 * Outer white space never goes to an engine (models drop or mangle it). With
 * `preserve_formatting`, each line is its own segment. `document` translates blank-line-separated
 * paragraphs as units and keeps the blank lines; `message` protects URLs, e-mails, mentions,
 * hashtags, emoji, shortcodes and a UI string's rich-text tags (`<link>…</link>`); `subtitle` keeps a cue's line breaks (as placeholders, so the
 * line count survives) and tags, and hands whole SRT/WebVTT files to the subtitle cutter.
 * Interpolation variables (`{name}`, `%1$s`: variable_spans.ts) come back as written in every
 * mode but `subtitle`, and an ICU message's apostrophes as ICU reads them (icu_apostrophes.ts).
 */
import { type CutItem, type CutOptions, cutRanges, type Format } from "./format.ts";
import { messageSpans } from "./message_spans.ts";
import { buildSegment, matchedSpans, type SpanFinder } from "./placeholders.ts";
import { cutAssFile, isAssFile } from "./ass_subtitles.ts";
import { cueTextSegment, cutSubtitleFile, inCueLines, isSubtitleFile } from "./subtitles.ts";
import { icuApostrophes } from "./icu_apostrophes.ts";
import { bothSpans, icuSpans, richTextTags, variableSpans } from "./variable_spans.ts";

const LINE_BREAK = /\r?\n/g;
/**
 * Blank lines as readers see them: any line ending (CR alone too, never the CR of a CRLF) and
 * lines of any white space (a no-break or ideographic space). One rule for the source and the
 * engine's answer: a paragraph holding a line the answer's rule reads as blank lost it.
 */
const BLANK_LINES = /(?:\r\n|\r(?!\n)|\n)(?:[^\S\r\n]*(?:\r\n|\r(?!\n)|\n))+/g;

/** Plain text. */
export const textFormat: Format = {
  cut(text: string, options: CutOptions): CutItem {
    const file = options.mode === "subtitle" ? subtitleFileCut(text, options) : undefined;
    if (file !== undefined) return file;
    const find = spanFinder(options.mode);
    const separator = options.preserveFormatting
      ? LINE_BREAK
      : options.mode === "document"
      ? BLANK_LINES
      : undefined;
    const escape = ENGINE_TEXT[options.mode];
    return cutRanges(
      text,
      unitsBetween(text, separator),
      options.mode === "subtitle"
        ? cueTextSegment
        : (unit) => buildSegment([unit], { find, ...icuApostrophes(unit, escape) }),
    );
  },
};

/**
 * The cut of a whole subtitle file (SRT, WebVTT, ASS/SSA): one segment per cue's text; undefined
 * for any other text. `subtitle` mode translates by it; detection reads a file by it in every
 * mode, since a header, a NOTE or the ASS keys (English words) outweighed short cues.
 */
export function subtitleFileCut(text: string, options: CutOptions): CutItem | undefined {
  if (isSubtitleFile(text)) return cutSubtitleFile(text, options);
  if (isAssFile(text)) return cutAssFile(text);
  return undefined;
}

/**
 * What an engine's answer may not add, by mode: a subtitle cue its lines, a document paragraph
 * a blank line (a paragraph more: the count is kept).
 */
const ENGINE_TEXT: Readonly<Record<string, (text: string) => string>> = {
  subtitle: inCueLines,
  document: (text) =>
    text.replace(BLANK_LINES, (lines) => lines.startsWith("\r\n") ? "\r\n" : lines[0]),
};

const MESSAGE_STRING = bothSpans(
  icuSpans,
  bothSpans(messageSpans, bothSpans(variableSpans, richTextTags)),
);

/**
 * What a mode protects inside a text run, in every format (text, HTML, Markdown, XML): the
 * interpolation variables of a UI string or a template rendered into a page (`{{ user.name }}`
 * in an Angular one), and in message mode its addresses and emoji too; a subtitle cue, which is
 * prose, keeps its line breaks only.
 */
export function spanFinder(mode: string): SpanFinder {
  if (mode === "message") return MESSAGE_STRING;
  return mode === "subtitle" ? lineBreaks : variableSpans;
}

/** A cue's line breaks, kept in place so a two-line cue stays two lines. */
export const lineBreaks: SpanFinder = matchedSpans(LINE_BREAK);

/** The [start, end) ranges of `text` between matches of `separator` (all of it when none). */
function unitsBetween(text: string, separator: RegExp | undefined): [number, number][] {
  if (!separator) return [[0, text.length]];
  const ranges: [number, number][] = [];
  let at = 0;
  for (const match of text.matchAll(separator)) {
    ranges.push([at, match.index]);
    at = match.index + match[0].length;
  }
  ranges.push([at, text.length]);
  return ranges;
}
