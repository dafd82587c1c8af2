/**
 * Whole SRT and WebVTT files in `subtitle` mode: only cue text is translated; every index,
 * timing (with its cue settings), header, NOTE, STYLE and REGION block, blank line, line ending
 * and byte-order mark comes back byte for byte.
 *
 * Parsed by hand, not with a subtitle library: those re-serialise the file (renumber cues,
 * rewrite timings, normalise line endings), and nothing but cue text may change.
 *
 * Inside a cue, tags (`<i>`, `<b>`, `<v Speaker>`, `<c.loud>`, timestamps, `{\an8}`) and line
 * breaks become placeholders, so a two-line cue stays two lines.
 */
import { type CutItem, type CutOptions, cutRanges } from "./format.ts";
import { atom, buildSegment, close, open, type SegmentPart } from "./placeholders.ts";

const BOM = "\uFEFF";
const TIMING = /-->/;
const SRT_TIMING = /^\s*\d+:\d{2}:\d{2}[,.]\d{1,3}\s*-->\s*\d+:\d{2}:\d{2}[,.]\d{1,3}/;
const VTT_HEADER = /^WEBVTT(?:[ \t\r\n]|$)/;
/** WebVTT blocks that are not cues. */
const VTT_NON_CUE = /^(?:NOTE|STYLE|REGION)(?:[ \t\r\n]|$)/;
/** Cue markup: tags, timestamps, SSA overrides, entities. */
const CUE_MARKUP =
  /<\/?[a-zA-Z][^<>]*>|<\d[\d:.]*>|\{\\[^{}]*\}|&(?:#\d+|#x[\da-fA-F]+|[a-zA-Z]+);/g;
const CUE_TAG = /^<(\/?)([a-zA-Z]+)/;
/** Line breaks an engine wrote, with the spaces around them. */
const ENGINE_LINE_BREAKS = /(?:[ \t]*(?:\r\n|\n|\r))+[ \t]*/g;

/**
 * A cue's text as an engine wrote it, in the cue's lines: a line break of the engine's would add
 * a line (and a blank one would end the cue), so each is a space; the cue's own line breaks are
 * placeholders and stay.
 */
export function inCueLines(text: string): string {
  return text.replace(ENGINE_LINE_BREAKS, " ");
}

/**
 * WebVTT's too, where cue text is markup: an engine's `<` would open a cue tag, its `&` a
 * reference, its `-->` read as a timing line.
 */
function inWebVttCueLines(text: string): string {
  return inCueLines(text).replaceAll("&", "&amp;").replaceAll("<", "&lt;")
    .replaceAll("-->", "--&gt;");
}

/** True when `text` is a whole WebVTT file, or an SRT file (an index, then a timing line). */
export function isSubtitleFile(text: string): boolean {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  if (VTT_HEADER.test(body)) return true;
  const lines = body.replace(/^\s+/, "").split(/\r\n|\n|\r/, 2);
  return lines.length === 2 && /^\d+\s*$/.test(lines[0]) && SRT_TIMING.test(lines[1]);
}

/** One line of a file: [start, end) of its content, without the line ending. */
interface Line {
  start: number;
  end: number;
}

/** Cuts a whole subtitle file: one segment per cue's text. */
export function cutSubtitleFile(text: string, _options: CutOptions): CutItem {
  const lines = splitLines(text);
  const vtt = VTT_HEADER.test(text.startsWith(BOM) ? text.slice(1) : text);
  const ranges: [number, number][] = [];
  let block: Line[] = [];
  const flush = () => {
    const cue = cueText(text, block, vtt && isHeader(text, block));
    if (cue) ranges.push(cue);
    block = [];
  };
  for (const line of lines) {
    if (text.slice(line.start, line.end).trim() === "") flush();
    else block.push(line);
  }
  flush();
  const escape = vtt ? inWebVttCueLines : inCueLines;
  return cutRanges(text, ranges, (cue) => buildSegment(cueParts(cue), { escape }));
}

function isHeader(text: string, block: Line[]): boolean {
  const first = block[0] && text.slice(block[0].start, block[0].end).replace(BOM, "");
  return first !== undefined && VTT_HEADER.test(first);
}

/** The [start, end) of a block's cue text, or undefined when the block is not a cue. */
function cueText(text: string, block: Line[], header: boolean): [number, number] | undefined {
  if (block.length === 0 || header) return undefined;
  if (VTT_NON_CUE.test(text.slice(block[0].start, block[0].end))) return undefined;
  // The timing line is the first or, after a cue identifier or SRT index, the second line.
  const timing = block.slice(0, 2).findIndex((line) =>
    TIMING.test(text.slice(line.start, line.end))
  );
  if (timing === -1 || timing + 1 >= block.length) return undefined;
  return [block[timing + 1].start, block.at(-1)!.end];
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (const match of text.matchAll(/\r\n|\n|\r/g)) {
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
const CUE_PIECE = new RegExp(`${CUE_MARKUP.source}|\\r\\n|\\n|\\r`, "g");

/** A cue's text as segment parts: tags pair up by name, line breaks and the rest are atoms. */
function cueParts(cue: string): SegmentPart[] {
  const parts: SegmentPart[] = [];
  let at = 0;
  CUE_PIECE.lastIndex = 0;
  for (let match = CUE_PIECE.exec(cue); match !== null; match = CUE_PIECE.exec(cue)) {
    if (match.index > at) parts.push(cue.slice(at, match.index));
    parts.push(cueMarkup(match[0]));
    at = CUE_PIECE.lastIndex;
  }
  if (at < cue.length) parts.push(cue.slice(at));
  return parts;
}

function cueMarkup(markup: string) {
  const tag = CUE_TAG.exec(markup);
  if (!tag) return atom(markup);
  const name = tag[2].toLowerCase();
  return tag[1] ? close(markup, name) : open(markup, name);
}
