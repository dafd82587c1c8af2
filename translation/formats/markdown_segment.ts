/**
 * A Markdown segment from a text block's inline parts: changed text escaped for where the block
 * stands, the author's references and emphasis spelling kept, and a `<wbr>` inside a word kept
 * out of the engine's text and put back as in HTML (html_word_breaks.ts: one rule for both).
 *
 * Pure: no I/O.
 */
import {
  buildSegment,
  type Escape,
  type PlaceholderSegment,
  type SegmentPart,
  type SpanFinder,
} from "./placeholders.ts";
import { decodeMarkdownReference } from "./markdown_escape.ts";
import { keepingReferences } from "./reference_spelling.ts";
import { respellEmphasis } from "./markdown_emphasis_spelling.ts";
import { MARKDOWN_TEXT } from "./markdown_text_parts.ts";
import { withoutWordBreaks, withWordBreaks } from "./html_word_breaks.ts";

/** A segment of inline parts: changed text escaped, the author's references and emphasis kept. */
export function markdownSegment(
  inlines: readonly SegmentPart[],
  escape: Escape,
  find?: SpanFinder,
): PlaceholderSegment {
  const { parts: words, breaks } = withoutWordBreaks(inlines);
  const built = buildSegment(words, {
    find,
    decode: MARKDOWN_TEXT.decode,
    escape: keepingReferences(
      escape,
      words.filter((part) => typeof part === "string"),
      decodeMarkdownReference,
      { backslash: true },
    ),
    respell: respellEmphasis,
  });
  return withWordBreaks(built, breaks, inlines);
}
