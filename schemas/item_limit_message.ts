/**
 * What a request with an item over the per-item limit is told: the item's length, the limit,
 * and how to send such a text in parts. A real subtitle file (100–150 cues) is over the limit,
 * so a file says where it may be cut and what each part needs to be read as a file again.
 */
import { isSubtitleFile } from "../translation/formats/subtitles.ts";
import { isAssFile } from "../translation/formats/ass_subtitles.ts";

/** A WebVTT file: a part after the first is read as one only with its own header. */
const WEBVTT = /^\uFEFF?WEBVTT(?:[ \t\r\n]|$)/;

/**
 * The message for the over-long item `text` (the error names the item before it).
 *
 * @example
 * ```ts
 * itemLimitMessage("x".repeat(8001), { item: 8000, total: 50000 });
 * // "an item is 8001 characters, over the 8000 one item may hold: send …"
 * ```
 */
export function itemLimitMessage(text: string, limits: { item: number; total: number }): string {
  const over = `an item is ${[...text].length} characters, over the ${limits.item} one item ` +
    `may hold`;
  const parts = `of at most ${limits.item} characters each (${limits.total} in total per request)`;
  if (isAssFile(text)) {
    return `${over}: send a longer ASS file as several items ${parts}, cut between two ` +
      `Dialogue lines, each part after the first starting with a copy of the [Events] Format ` +
      `line (read as a file again from it; drop it when joining the translated parts in order)`;
  }
  if (!isSubtitleFile(text)) {
    return `${over}: send a longer text as several items ${parts}, cut between paragraphs or ` +
      `sentences`;
  }
  const header = WEBVTT.test(text) ? ", each part starting with its own WEBVTT line" : "";
  return `${over}: send a longer subtitle file as several items ${parts}, cut between two cues ` +
    `(at a blank line)${header}, and join the translated parts in order`;
}
