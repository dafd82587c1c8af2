/**
 * What of an item language detection reads, in one place for every route that detects:
 * /v1/translate, the WebSocket and the compatibility routes (through the item plan), /v1/detect
 * and LibreTranslate's /detect. One text gets one answer whichever route asks.
 *
 * Detection reads what a reader sees: not markup or code (the format's never-translated
 * segments), nor interpolation variables, nor a subtitle file's timings, header and notes (a
 * file sent as a paragraph, or to /v1/detect, is still read by its cues). The detector itself
 * leaves out a message's URLs, mentions and emoji (detection/readable_text.ts).
 *
 * A plain-text item reads the same in every `mode`: the mode says how an item is cut for the
 * engine, not which language it is in. /v1/detect has no mode, and a chat message sent in
 * `message` mode (whose hashtags are placeholders) or a line in `subtitle` mode (whose braces
 * are text) was answered another language there than by /v1/detect.
 */
import type { TranslationFormat } from "../schemas/translation.ts";
import type { CutItem, CutOptions } from "./formats/format.ts";
import { FORMATS, visibleText } from "./formats/formats.ts";
import { subtitleFileCut } from "./formats/text.ts";

/**
 * How a plain-text item is read, whatever its request's `mode` (/v1/detect has none): as
 * /v1/translate reads it in its default mode.
 */
export const DEFAULT_READING: Readonly<CutOptions> = {
  mode: "paragraph",
  preserveFormatting: false,
};

/**
 * The text detection reads of `text` sent in `format` with `options`; `options.cut` is the
 * format's cut of it when the caller has made it already.
 *
 * @example
 * ```ts
 * detectionText("WEBVTT\n\nNOTE English words\n\n00:01.000 --> 00:02.000\nHola"); // "Hola"
 * ```
 */
export function detectionText(
  text: string,
  format: TranslationFormat = "text",
  options: { cut?: CutItem } & CutOptions = DEFAULT_READING,
): string {
  if (format !== "text") return visibleText(options.cut ?? FORMATS[format].cut(text, options));
  const file = subtitleFileCut(text, DEFAULT_READING);
  if (file !== undefined) return visibleText(file);
  const sameReading = options.mode === DEFAULT_READING.mode && !options.preserveFormatting;
  return visibleText(
    sameReading && options.cut ? options.cut : FORMATS.text.cut(text, DEFAULT_READING),
  );
}
