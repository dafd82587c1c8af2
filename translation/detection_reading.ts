/**
 * What of an item language detection reads, in one place for every route that detects:
 * /v1/translate, the WebSocket and the compatibility routes (through the item plan), /v1/detect
 * and LibreTranslate's /detect. One text gets one answer whichever route asks.
 *
 * Detection reads what a reader sees: not markup or code (the format's never-translated
 * segments), nor interpolation variables, nor a subtitle file's timings, header and notes (in
 * any mode: a file sent as a paragraph, or to /v1/detect, is still read by its cues). The
 * detector itself leaves out a message's URLs, mentions and emoji (detection/readable_text.ts).
 */
import type { TranslationFormat } from "../schemas/translation.ts";
import type { CutItem, CutOptions } from "./formats/format.ts";
import { FORMATS, visibleText } from "./formats/formats.ts";
import { subtitleFileCut } from "./formats/text.ts";

/**
 * How a text with no request fields is read (/v1/detect has no `format` or `mode`): as
 * /v1/translate reads it with their defaults.
 */
export const DEFAULT_READING: Readonly<CutOptions> = {
  mode: "paragraph",
  preserveFormatting: false,
};

/**
 * The text detection reads of `text` sent in `format` with `options`; `cut` is the format's cut
 * of it when the caller has made it already.
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
  const cut = options.cut ?? FORMATS[format].cut(text, options);
  const read = format === "text" && options.mode !== "subtitle"
    ? subtitleFileCut(text, options) ?? cut
    : cut;
  return visibleText(read);
}
