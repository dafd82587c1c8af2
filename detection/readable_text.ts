/**
 * The part of a text detection reads: what a chat message protects (URLs, e-mail addresses,
 * `@mentions`, code in backticks, chat markup, `:shortcodes:`) is no word of the language around
 * it, glued to it or not (`@user你好`, `看看https://x.com`, where no space parts them).
 *
 * The spans are `message` mode's own (translation/formats/message_spans.ts), so a message reads
 * the same whether it is detected in that mode (where they are placeholders already), in
 * another, or by /v1/detect. A `#hashtag` is blanked too, as message mode has always read it:
 * tags are often English on a message in another language (`merci beaucoup #release_notes`).
 */
import { messageSpans } from "../translation/formats/message_spans.ts";

/**
 * `text` with its protected spans blanked (each becomes one space, so the words on either side
 * stay apart).
 *
 * @example
 * ```ts
 * readableText("@user你好"); // " 你好"
 * readableText("看看https://x.com"); // "看看 "
 * ```
 */
export function readableText(text: string): string {
  const spans = messageSpans(text);
  if (spans.length === 0) return text;
  let readable = "";
  let from = 0;
  for (const [start, end] of spans) {
    readable += text.slice(from, start) + " ";
    from = end;
  }
  return readable + text.slice(from);
}
