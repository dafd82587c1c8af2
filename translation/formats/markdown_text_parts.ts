/**
 * The text runs of a Markdown block as segment parts: what is kept whole inside text (line
 * breaks with their prefixes, escapes, references not read as text, `:shortcodes:`, extension
 * syntax) and how text reads for the engine (references decoded).
 *
 * Pure: no I/O.
 */
import { mayForgeToken, type TextReading, textReading } from "./character_references.ts";
import { decodeMarkdownReference } from "./markdown_escape.ts";
import {
  BRACKETED_SPAN,
  EXTENSION_SPANS,
  EXTENSION_SPANS_MID_LINE,
  mayHoldExtension,
} from "./markdown_extensions.ts";
import { shortcodeSpans } from "./message_spans.ts";
import {
  close,
  matchedSpans,
  open,
  protectSpans,
  type SegmentPart,
  type SpanFinder,
} from "./placeholders.ts";

/**
 * Kept whole inside text: LaTeX's inline math on one line (`\(x^2\)`: MathJax, MkDocs'
 * arithmatex; to CommonMark two escapes around text), line breaks with their prefixes, escapes
 * but `\<` and `\>` (read as text: {@link MARKDOWN_TEXT}), and GitHub's alert markers
 * (`> [!NOTE]`: translated, the block quote would lose its alert). A break's spaces are matched
 * from the first of them only: tried at each, a long run of spaces took the square of its
 * length.
 */
const LINES_AND_ESCAPES = matchedSpans(
  /\\\([^\r\n]{1,500}?\\\)|(?<![ \t])[ \t]*(?:\r\n?|\n)[ \t>]*|\\[!-/:-;=?-@[-`{-~]|\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]/gi,
);
/** A backslash escape, read from the left (`\\<` is an escaped backslash, then `<`). */
const ESCAPE = /\\[!-/:-@[-`{-~]/g;

/** How CommonMark's references read: as in HTML, `&lt;`, `&gt;` and `&nbsp;` inside a run too. */
const REFERENCES = textReading(decodeMarkdownReference, (text) => text, { characters: true });

/**
 * How text reads (character_references.ts): references as their characters, and `\<`, `\>` as
 * `<`, `>`, as `&lt;` and `&gt;` read (as placeholders they split the sentence: `the
 * <x1/>Button<x2/> tag`), each kept whole where the text could spell a placeholder token with
 * it. A changed run is written back by where its block stands (markdown_escape.ts: no `<` that
 * could open a tag or an autolink) with the author's spelling (reference_spelling.ts), so this
 * reading's own escape is none.
 */
export const MARKDOWN_TEXT: TextReading = {
  ...REFERENCES,
  atoms: (text) => {
    const atoms = REFERENCES.atoms(text);
    if (!text.includes("\\") || !mayForgeToken(text)) return atoms;
    for (const { 0: escape, index } of text.matchAll(ESCAPE)) {
      if (escape === "\\<" || escape === "\\>") atoms.push([index, index + 2]);
    }
    return atoms;
  },
  decode: (written) =>
    REFERENCES.decode(
      written.includes("\\")
        ? written.replace(ESCAPE, (escape) =>
          escape === "\\<" || escape === "\\>" ? escape[1] : escape)
        : written,
    ),
};

/**
 * Kept whole in a run that starts a line: those, references that are not read as text,
 * `:shortcodes:` (GitHub renders them) and extension syntax...
 */
const KEPT_IN_TEXT: SpanFinder = (text) => [
  ...LINES_AND_ESCAPES(text),
  ...MARKDOWN_TEXT.atoms(text),
  ...EXTENSION_SPANS(text),
  ...shortcodeSpans(text),
];

/** ...and for one that starts after inline syntax (`http://x.org: see`: no definition marker). */
const KEPT_IN_TEXT_MID_LINE: SpanFinder = (text) => [
  ...LINES_AND_ESCAPES(text),
  ...MARKDOWN_TEXT.atoms(text),
  ...EXTENSION_SPANS_MID_LINE(text),
  ...shortcodeSpans(text),
];

/**
 * Adds text to `parts` with its line breaks (LF, CR LF, or CR alone as in old Mac files),
 * escapes, alert markers, references, `:shortcodes:` and extension syntax (markdown_extensions.ts)
 * kept whole. Each of those holds a line feed or CR, a `\`, `[!`, a `&`, `:`, `{` or `[[`: text with
 * none (most runs) is not scanned.
 */
export function textParts(
  source: string,
  from: number,
  to: number,
  parts: SegmentPart[],
): SegmentPart[] {
  const text = source.slice(from, to);
  if (
    !text.includes("\n") && !text.includes("\r") && !text.includes("\\") && !text.includes("&") &&
    !text.includes("[!") && !text.includes(":") && !mayHoldExtension(text)
  ) {
    if (text !== "") parts.push(text);
    return parts;
  }
  const finder = startsLine(source, from) ? KEPT_IN_TEXT : KEPT_IN_TEXT_MID_LINE;
  // A bracketed span (`[text]{.class}`) is markup around translated text, as emphasis is.
  let at = 0;
  for (const span of text.includes("]{") ? text.matchAll(BRACKETED_SPAN) : []) {
    const [whole, inner] = span;
    const name = `span${from + span.index}`;
    // Text after a span starts after inline syntax, as a run after a link does.
    const before = at === 0 ? finder : KEPT_IN_TEXT_MID_LINE;
    if (span.index > at) protectInto(text.slice(at, span.index), before, parts);
    parts.push(open("[", name));
    protectInto(inner, KEPT_IN_TEXT_MID_LINE, parts);
    parts.push(close(whole.slice(1 + inner.length), name));
    at = span.index + whole.length;
  }
  if (at === 0) protectInto(text, finder, parts);
  else if (at < text.length) protectInto(text.slice(at), KEPT_IN_TEXT_MID_LINE, parts);
  return parts;
}

function protectInto(text: string, finder: SpanFinder, parts: SegmentPart[]): void {
  for (const part of protectSpans(text, finder)) parts.push(part);
}

/** Whether `at` is where a line's content starts (past its indent and quote markers). */
function startsLine(source: string, at: number): boolean {
  let before = at - 1;
  while (
    before >= 0 && (source[before] === " " || source[before] === "\t" || source[before] === ">")
  ) {
    before--;
  }
  return before < 0 || source[before] === "\n" || source[before] === "\r";
}
