/**
 * Whole SRT and WebVTT files in `subtitle` mode: only cue text is translated; every index,
 * timing (with its cue settings), header, NOTE, STYLE and REGION block, blank line, line ending
 * and byte-order mark comes back byte for byte, and so does a WebVTT metadata cue's JSON or a
 * thumbnail cue's image.
 *
 * Parsed by hand, not with a subtitle library: those re-serialise the file (renumber cues,
 * rewrite timings, normalise line endings), and nothing but cue text may change.
 *
 * Inside a cue, tags (`<i>`, `<b>`, `<v Speaker>`, `<c.loud>`, timestamps, `{\an8}`) and line
 * breaks become placeholders, so a two-line cue stays two lines; a ruby's reading (`<rt>…`) is
 * one placeholder, never sent; WebVTT's character references reach the engine as the characters
 * they stand for.
 */
import { decodeHTML } from "entities/decode";
import { textReading } from "./character_references.ts";
import { type CutItem, type CutOptions, cutRanges } from "./format.ts";
import {
  atom,
  buildSegment,
  close,
  open,
  type PlaceholderSegment,
  type SegmentOptions,
  type SegmentPart,
} from "./placeholders.ts";
import { defusingTimings, keepsOneCue, TIMING_LINE } from "./subtitle_cue_answers.ts";

const BOM = "\uFEFF";
const ARROW = /-->/;
/**
 * An SRT timing line; some converters write the milliseconds after `.` or `:`, some drop the
 * leading zeros (`0:0:1,0`), which players read all the same.
 */
const SRT_TIMING = /^\s*\d+:\d{1,2}:\d{1,2}[,.:]\d{1,3}\s*-->\s*\d+:\d{1,2}:\d{1,2}[,.:]\d{1,3}/;
/** An SRT index (or a numeric WebVTT cue identifier) before a timing line. */
const INDEX_LINE = /^\s*\d+\s*$/;
const VTT_HEADER = /^WEBVTT(?:[ \t\r\n]|$)/;
/** WebVTT blocks that are not cues. */
const VTT_NON_CUE = /^(?:NOTE|STYLE|REGION)(?:[ \t\r\n]|$)/;
/** Cue tags, timestamps and SSA overrides. */
const CUE_TAGS = String.raw`<\/?[a-zA-Z][^<>]*>|<\d[\d:.]*>|\{\\[^{}]*\}`;
/** SRT has no character references: one written there is kept whole, as players differ. */
const SRT_MARKUP = `${CUE_TAGS}|&(?:#\\d+|#x[\\da-fA-F]+|[a-zA-Z]+);`;
const CUE_TAG = /^<(\/?)([a-zA-Z]+)/;
/**
 * Where a ruby's reading opened by `<rt>` ends: at its `</rt>`, or before the `</ruby>` that
 * closes it too, or at the cue's end (WebVTT lets both end tags go).
 */
const RUBY_TEXT_END = /<\/rt\s*>|(?=<\/ruby\s*>)|$/gi;
/**
 * The tags SRT players (VLC, FFmpeg) style by, whatever follows the name (`<b and c>` is bold
 * there). Any other tag is hidden only when closed later in the cue, else shown as text.
 */
const SRT_TAG_NAMES = new Set(["b", "i", "u", "s", "font", "br"]);
/**
 * A byte-order mark inside a file, before a header, an index or a timing line: a second file
 * appended to the first, whose first line starts there even without a line break before it.
 */
const APPENDED_FILE = /^\uFEFF(?:WEBVTT|\s*\d)/;
const LINE_BREAKS = /\r\n|\n|\r|(?<=[^\r\n])(?=\uFEFF(?:WEBVTT|\s*\d))/g;
/** Line breaks an engine wrote, with the spaces around them. */
const ENGINE_LINE_BREAKS = /(?:[ \t]*(?:\r\n|\n|\r))+[ \t]*/g;

/**
 * A cue's text as an engine wrote it, in the cue's lines: a line break of the engine's would add
 * a line (and a blank one would end the cue), so each is a space; the cue's own line breaks are
 * placeholders and stay. A byte-order mark it wrote goes: read again, the file would start a
 * line there (an appended file's), and a cue at a timing after it.
 */
export function inCueLines(text: string): string {
  return text.replace(ENGINE_LINE_BREAKS, " ").replaceAll(BOM, "");
}

/**
 * WebVTT's too, where cue text is markup: an engine's `<` would open a cue tag, its `&` a
 * reference, its `-->` read as a timing line.
 */
function inWebVttCueLines(text: string): string {
  return inCueLines(text).replaceAll("&", "&amp;").replaceAll("<", "&lt;")
    .replaceAll("-->", "--&gt;");
}

/**
 * WebVTT cue text reads character references as HTML does: the engine gets `Tom & Jerry`, not
 * `Tom <x1/> Jerry`, and what it writes is escaped back.
 */
const WEBVTT_TEXT = textReading((reference) => decodeHTML(reference), inWebVttCueLines);

/** How each kind of file's cue text is read and written back. */
const CUE_READINGS = {
  srt: {
    pieces: piecePattern(SRT_MARKUP),
    shown: shownSrtTag,
    lines: inCueLines,
    segment: { escape: defusingTimings(inCueLines) },
  },
  vtt: {
    pieces: piecePattern(CUE_TAGS),
    shown: () => false,
    lines: WEBVTT_TEXT.escape,
    segment: { find: WEBVTT_TEXT.atoms, decode: WEBVTT_TEXT.decode, escape: WEBVTT_TEXT.escape },
  },
  /**
   * One cue's text, not a whole file: SRT or WebVTT, no telling which, so every tag and
   * reference of either is kept (a WebVTT `<v Bob>` is never closed).
   */
  cue: {
    pieces: piecePattern(SRT_MARKUP),
    shown: () => false,
    lines: inCueLines,
    segment: { escape: defusingTimings(inCueLines) },
  },
} satisfies Record<string, CueReading>;

interface CueReading {
  pieces: RegExp;
  /** True when the markup at `at` in `cue` is shown by players as text. */
  shown: (cue: string, at: number, markup: string) => boolean;
  /** What an engine's text becomes in the cue's lines (before a timing in it is defused). */
  lines: (text: string) => string;
  segment: SegmentOptions;
}

/** A cue's text as a segment whose answer may not start or end a cue. */
function cueSegment(cue: string, reading: CueReading): PlaceholderSegment {
  const accepts = keepsOneCue(cue, reading.lines);
  return buildSegment(cueParts(cue, reading), { ...reading.segment, accepts });
}

/**
 * True when `text` is a whole WebVTT file, or an SRT file: a timing line first (some tools write
 * no indices), or an index and a timing line anywhere, as players find cues at their timings
 * whatever stands before the first (a site's credit). Blank lines between them do not count: a
 * file converted twice ends its lines in CR CR LF, a blank line after each.
 */
export function isSubtitleFile(text: string): boolean {
  const body = withoutBom(text);
  if (VTT_HEADER.test(body)) return true;
  const lines = body.split(/\r\n|\n|\r/).filter((line) => line.trim() !== "");
  if (lines.length > 0 && SRT_TIMING.test(lines[0])) return true;
  return lines.some((line, at) =>
    at > 0 && SRT_TIMING.test(line) && INDEX_LINE.test(lines[at - 1])
  );
}

/** One cue's text as a segment: its tags, references and line breaks kept. */
export function cueTextSegment(text: string): PlaceholderSegment {
  return cueSegment(text, CUE_READINGS.cue);
}

/** One line of a file: [start, end) of its content, without the line ending. */
interface Line {
  start: number;
  end: number;
}

/** Cuts a whole subtitle file: one segment per cue's text. */
export function cutSubtitleFile(text: string, _options: CutOptions): CutItem {
  const lines = splitLines(text);
  const vtt = VTT_HEADER.test(withoutBom(text));
  const ranges: [number, number][] = [];
  let block: string[] = [];
  let blockLines: Line[] = [];
  let first = true;
  const flush = () => {
    if (block.length === 0) return;
    const header = first && vtt && VTT_HEADER.test(withoutBom(block[0]));
    first = false;
    for (const [from, to] of cueLines(block, { vtt, header })) {
      const range: [number, number] = [blockLines[from].start, blockLines[to - 1].end];
      if (!vtt || !isMetadataPayload(text.slice(...range))) ranges.push(range);
    }
    block = [];
    blockLines = [];
  };
  for (const line of lines) {
    const content = text.slice(line.start, line.end);
    if (line.start > 0 && APPENDED_FILE.test(content)) {
      // An appended file: its first block is its own (a WebVTT header, not cue text).
      flush();
      first = true;
    }
    if (content.trim() === "") flush();
    else {
      block.push(content);
      blockLines.push(line);
    }
  }
  flush();
  const reading = CUE_READINGS[vtt ? "vtt" : "srt"];
  return { ...cutRanges(text, ranges, (cue) => cueSegment(cue, reading)), standalone: true };
}

/**
 * The [from, to) line ranges of a block (lines between blank ones) that hold cue text. A timing
 * line starts a cue wherever it stands, with the index or identifier just before it; the text
 * runs up to the next cue's. In SRT, text before a block's first timing line (a cue that held a
 * blank line) is shown by players, so it is translated; in WebVTT it is no cue and is kept.
 */
function cueLines(block: string[], at: { vtt: boolean; header: boolean }): [number, number][] {
  // A NOTE, STYLE or REGION block is one only without a timing: browsers read a timing as its
  // second line as a cue's (the first its identifier), and one further down as a new block's.
  const nonCue = at.vtt && !at.header && VTT_NON_CUE.test(block[0]);
  if (nonCue && !block.some((line) => TIMING_LINE.test(line))) return [];
  const from = at.header ? 1 : 0;
  const timings = timingLines(block, from);
  const ranges: [number, number][] = [];
  const orphanEnd = timings.length === 0 ? block.length : cueStart(block, timings[0], from, at);
  if (!at.vtt && orphanEnd > from) ranges.push([from, orphanEnd]);
  for (const [index, timing] of timings.entries()) {
    const next = timings[index + 1];
    const end = next === undefined ? block.length : cueStart(block, next, timing + 1, at);
    if (end > timing + 1) ranges.push([timing + 1, end]);
  }
  return ranges;
}

/**
 * The timing lines of a block from `from` on; with none of the strict shape, a line with `-->`
 * among its first two (a timing written some other way), as cues were found before.
 */
function timingLines(block: string[], from: number): number[] {
  const found: number[] = [];
  for (let index = from; index < block.length; index++) {
    if (TIMING_LINE.test(block[index])) found.push(index);
  }
  if (found.length > 0 || from > 0) return found;
  const loose = block.slice(0, 2).findIndex((line) => ARROW.test(line));
  return loose === -1 ? [] : [loose];
}

/** Where the cue of the timing line `timing` starts: its index or identifier line, if any. */
function cueStart(block: string[], timing: number, floor: number, at: { vtt: boolean }): number {
  if (timing - 1 < floor) return timing;
  const identifier = INDEX_LINE.test(block[timing - 1]) || (at.vtt && timing - 1 === 0);
  return identifier ? timing - 1 : timing;
}

/**
 * A thumbnail track's cue: one image a player's seek bar shows (a sprite's region after
 * `#xywh=`), by path or URL.
 */
const IMAGE_REFERENCE = /^[^\s<>]+\.(?:jpe?g|png|gif|webp|avif|bmp|svg)(?:[?#][^\s<>]*)?$/i;

/**
 * A WebVTT cue a page's script or a player reads, never shown as words: a metadata cue's JSON
 * object or array (a slide number, a chapter's data), whose keys and values would break the
 * script translated, or a thumbnail's image reference.
 */
function isMetadataPayload(cue: string): boolean {
  const body = cue.trim();
  if (IMAGE_REFERENCE.test(body)) return true;
  if (!/^[[{]/.test(body)) return false;
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}

function withoutBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/** The lines of a file, an appended file's byte-order mark starting one. */
function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (const match of text.matchAll(LINE_BREAKS)) {
    lines.push({ start, end: match.index });
    start = match.index + match[0].length;
  }
  lines.push({ start, end: text.length });
  return lines;
}

/**
 * Cue markup or a line break, in one pass: markup never starts with a line break, so the
 * leftmost match is the one the two patterns apart would give (a break inside markup is part
 * of it).
 */
function piecePattern(markup: string): RegExp {
  return new RegExp(`${markup}|\\r\\n|\\n|\\r`, "g");
}

/**
 * A cue's text as segment parts: tags pair up by name, line breaks and the rest are atoms;
 * markup players show as text is text.
 */
function cueParts(cue: string, reading: CueReading): SegmentPart[] {
  const { pieces, shown } = reading;
  const parts: SegmentPart[] = [];
  let text = "";
  let at = 0;
  pieces.lastIndex = 0;
  for (let match = pieces.exec(cue); match !== null; match = pieces.exec(cue)) {
    text += cue.slice(at, match.index);
    at = pieces.lastIndex;
    if (shown(cue, at, match[0])) {
      text += match[0];
      continue;
    }
    if (text !== "") parts.push(text);
    text = "";
    if (isRubyText(match[0])) {
      // A reading spells the source's base text, which no longer stands there translated: kept
      // whole as written, as HTML's are, never sent.
      at = pieces.lastIndex = rubyTextEnd(cue, at);
      parts.push(atom(cue.slice(match.index, at)));
      continue;
    }
    parts.push(cueMarkup(match[0]));
  }
  text += cue.slice(at);
  if (text !== "") parts.push(text);
  return parts;
}

/** An SRT opening tag players show: not one they style by, and not closed later in the cue. */
function shownSrtTag(cue: string, at: number, markup: string): boolean {
  const tag = CUE_TAG.exec(markup);
  if (!tag || tag[1] || SRT_TAG_NAMES.has(tag[2].toLowerCase())) return false;
  return !cue.slice(at).toLowerCase().includes(`</${tag[2].toLowerCase()}`);
}

function isRubyText(markup: string): boolean {
  const tag = CUE_TAG.exec(markup);
  return tag !== null && !tag[1] && tag[2].toLowerCase() === "rt";
}

function rubyTextEnd(cue: string, from: number): number {
  RUBY_TEXT_END.lastIndex = from;
  const end = RUBY_TEXT_END.exec(cue)!;
  return end.index + end[0].length;
}

function cueMarkup(markup: string) {
  const tag = CUE_TAG.exec(markup);
  if (!tag) return atom(markup);
  const name = tag[2].toLowerCase();
  return tag[1] ? close(markup, name) : open(markup, name);
}
