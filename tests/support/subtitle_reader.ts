/**
 * Reads SRT and WebVTT as players do, with the `subtitle` library (a stream parser that starts
 * a cue at any timing line, blank line before it or not), so tests compare the cues a player
 * would show rather than our own cutter's view of them.
 */
import { type NodeCue, parseSync } from "subtitle";

/** One cue as a player reads it. */
export interface PlayerCue {
  start: number;
  end: number;
  text: string;
}

/** The cues of a whole SRT or WebVTT file. */
export function playerCues(file: string): PlayerCue[] {
  return parseSync(file).filter((node): node is NodeCue => node.type === "cue").map((
    { data },
  ) => ({ start: data.start, end: data.end, text: data.text }));
}
