/**
 * Whole ASS and SSA (Advanced SubStation Alpha) files in `subtitle` mode: only the Text field
 * of `Dialogue:` lines is translated; script info, styles, the Format lines, each event's
 * timings, style, name, margins and effect, `Comment:` lines (players never show them), fonts,
 * graphics, line endings and the byte-order mark come back byte for byte.
 *
 * Inside a Text, override blocks (`{\i1}`, `{\an8\pos(320,50)}`, `{\k20}`, a `{comment}`) and
 * the `\N`, `\n` and `\h` escapes become placeholders, so tags and line breaks stay where they
 * were.
 */
import { type CutItem, cutRanges } from "./format.ts";
import { atom, buildSegment, type PlaceholderSegment, type SegmentPart } from "./placeholders.ts";
import { inCueLines } from "./subtitles.ts";

/**
 * An ASS or SSA file starts with its `[Script Info]` section (after a byte-order mark and blank
 * lines, which FFmpeg skips); a later part of one sent on its own, with its `[Events]` heading or
 * the Format line of its events.
 */
const ASS_START =
  /^\uFEFF?[ \t\r\n]*(?:\[(?:Script Info|Events)\][ \t]*(?:\r\n|\n|\r)|Format[ \t]*:[^\r\n]*,[ \t]*Text[ \t]*(?:\r\n|\n|\r))/i;
const SECTION = /^[ \t]*\[([^\]]*)\][ \t]*$/;
const FORMAT = /^[ \t]*Format[ \t]*:/i;
const DIALOGUE = /^[ \t]*Dialogue[ \t]*:/i;
/** Override blocks, and the hard break, soft break and hard space escapes. */
const TEXT_MARKUP = /\{[^{}]*\}|\\[Nnh]/g;
const LINE = /[^\r\n]*(?:\r\n|\n|\r|$)/g;
/** Fields before Text when no Format line says otherwise (ASS's and SSA's defaults: 9). */
const DEFAULT_TEXT_FIELD = 9;

/** True when `text` is a whole ASS or SSA file. */
export function isAssFile(text: string): boolean {
  return ASS_START.test(text);
}

/** Cuts an ASS or SSA file: one segment per Dialogue line's Text. */
export function cutAssFile(text: string): CutItem {
  const ranges: [number, number][] = [];
  // A part that starts at its Format line is all events.
  let section = "events";
  let textField = DEFAULT_TEXT_FIELD;
  LINE.lastIndex = 0;
  for (let match = LINE.exec(text); match !== null && match[0] !== ""; match = LINE.exec(text)) {
    const line = match[0].replace(/(?:\r\n|\n|\r)$/, "");
    const heading = SECTION.exec(line);
    if (heading) section = heading[1].trim().toLowerCase();
    else if (section === "events" && FORMAT.test(line)) textField = textFieldOf(line);
    else if (section === "events" && DIALOGUE.test(line)) {
      const start = textStart(line, textField);
      if (start !== undefined && start < line.length) {
        ranges.push([match.index + start, match.index + line.length]);
      }
    }
  }
  return { ...cutRanges(text, ranges, dialogueSegment), standalone: true };
}

/** How many fields come before Text in the Format line `line` (Text is the last by the spec). */
function textFieldOf(line: string): number {
  const fields = line.slice(line.indexOf(":") + 1).split(",").map((field) => field.trim());
  const at = fields.findIndex((field) => field.toLowerCase() === "text");
  return at === -1 ? DEFAULT_TEXT_FIELD : at;
}

/** Where a Dialogue line's Text starts: after `fields` commas (Text itself may hold commas). */
function textStart(line: string, fields: number): number | undefined {
  let at = line.indexOf(":") + 1;
  for (let field = 0; field < fields; field++) {
    const comma = line.indexOf(",", at);
    if (comma === -1) return undefined;
    at = comma + 1;
  }
  return at;
}

/** A block that starts a drawing (`\p1`: the text after it is vector commands) or ends one. */
const DRAWING = /\\p([1-9]|0)/;

/**
 * A Text as a segment; an engine's line break would end the Dialogue line (the rest read as a
 * line of no kind), so it is a space, as in SRT cues. A drawing (`{\p1}m 0 0 l 100 0{\p0}`)
 * is kept whole with its blocks: its commands are no words.
 */
function dialogueSegment(text: string): PlaceholderSegment {
  const parts: SegmentPart[] = [];
  let at = 0;
  let drawing: number | undefined;
  for (const match of text.matchAll(TEXT_MARKUP)) {
    const end = match.index + match[0].length;
    const scale = DRAWING.exec(match[0])?.[1];
    if (drawing !== undefined) {
      if (scale !== "0") continue;
      parts.push(atom(text.slice(drawing, end)));
      drawing = undefined;
      at = end;
      continue;
    }
    if (match.index > at) parts.push(text.slice(at, match.index));
    at = end;
    if (scale !== undefined && scale !== "0") drawing = match.index;
    else parts.push(atom(match[0]));
  }
  if (drawing !== undefined) parts.push(atom(text.slice(drawing)));
  else if (at < text.length) parts.push(text.slice(at));
  return buildSegment(parts, { escape: inCueLines });
}
