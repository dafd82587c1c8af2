/**
 * A subtitle cue's translation may not start or end a cue: a line of it that is a timing starts
 * one in players (a number line before it is that cue's index), and a line left empty ends it.
 * Such an answer is refused (the segment is then put back by the fallback, line by line); a
 * timing still written at a line's start by the fallback's engine loses its arrow, so the file
 * keeps its cues and timings whatever the engine wrote.
 */
import type { Escape } from "./placeholders.ts";

const LINE_BREAK = /\r\n|\n|\r/;
const LINE_END = /[\r\n]$/;
/** A line a player reads as a cue's index when a timing line follows it. */
const NUMBER_LINE = /^\s*\d+\s*$/;
/**
 * A timestamp players read: hours, minutes and seconds (FFmpeg and VLC read SRT's so, the
 * fraction after `,`, `.` or `:`, VLC's without one), or minutes and seconds with a fraction
 * (WebVTT's short form). `00:05` is neither: a time said in a cue's text.
 */
const TIMESTAMP = String.raw`\d+:\d+(?::\d+(?:[,.:]\d+)?|[.,]\d+)`;
/**
 * A line a player reads as a timing line, wherever it stands: two timestamps around `-->`, then
 * cue settings or SRT coordinates, or words, which players skip as settings they do not know.
 */
export const TIMING_LINE = new RegExp(String.raw`^\s*${TIMESTAMP}\s*-->\s*${TIMESTAMP}`);

/**
 * Whether an answer keeps the cue `cue` one cue: given as the segment's `accepts`, with
 * `escape` what the engine's text becomes in the cue's lines (its own line breaks spaces). No
 * more empty or timing lines than the source cue holds (an item that is one cue's text may
 * hold an empty line of its own).
 */
export function keepsOneCue(
  cue: string,
  escape: Escape,
): (between: readonly string[], markups: readonly string[]) => boolean {
  const own = cueBreaks(cue);
  return (between, markups) => {
    let text = escape(between[0], undefined, markups[0]);
    for (let index = 0; index < markups.length; index++) {
      text += markups[index] + escape(between[index + 1], markups[index], markups[index + 1]);
    }
    return cueBreaks(text) <= own;
  };
}

/**
 * `escape`, and a timing at the start of a line (the cue's first, or after a line break) loses
 * its arrow (`-->` becomes `→`): the last resort for an engine that writes one.
 */
export function defusingTimings(escape: Escape): Escape {
  return (text, before, after) => {
    const escaped = escape(text, before, after);
    const lineStart = before === undefined || LINE_END.test(before);
    return lineStart && TIMING_LINE.test(escaped) ? escaped.replace("-->", "→") : escaped;
  };
}

/**
 * The lines of `text` that would start or end a cue: empty ones, timing lines, and a last line
 * that is a number (the next cue's index, in a file whose cues have no blank line between them).
 */
function cueBreaks(text: string): number {
  const lines = text.split(LINE_BREAK);
  let count = NUMBER_LINE.test(lines[lines.length - 1]) ? 1 : 0;
  for (const line of lines) {
    if (line.trim() === "" || TIMING_LINE.test(line)) count++;
  }
  return count;
}
