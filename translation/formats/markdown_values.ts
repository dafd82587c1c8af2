/**
 * Text inside a Markdown segment's markup that a reader sees, translated as segments of its own
 * (as HTML's attributes are): a link's or image's title (`[text](url "Title")`, a tooltip) and
 * the translated attributes of inline HTML (`<abbr title="…">`, `<img alt="…">`), which follow
 * the HTML rules. The markup renders with their translations through the sentence's render hook;
 * the title's quotes, the URL and every other byte stay as written.
 *
 * Pure: no I/O.
 */
import { type Splice, spliceItem } from "./format.ts";
import { attributeSegment } from "./html.ts";
import { HTML_TEXT, type TextRules } from "./html_text_rules.ts";
import { scannedTokens } from "./html_scanner.ts";
import { parse5Tokens } from "./html_tokenizer.ts";
import {
  buildSegment,
  type Markup,
  type PlaceholderSegment,
  protectSpans,
  type RenderMarkup,
  type SegmentPart,
  type SpanFinder,
} from "./placeholders.ts";
import { matchedSpans } from "./placeholder_parts.ts";
import { type TextReading, textReading } from "./character_references.ts";
import { decodeMarkdownReference, REFERENCE_LIKE } from "./markdown_escape.ts";
import { keepingReferences } from "./reference_spelling.ts";

/** The translated values inside a segment's markup. */
export interface MarkupValues {
  /** One per value, in the order of the markup. */
  segments: PlaceholderSegment[];
  /** Renders markup with the values' translations (one per segment, in order). */
  render(translated: readonly string[]): RenderMarkup;
}

/** A tag that may have a translated attribute (most inline HTML has none: not tokenized). */
const MAY_HAVE_VALUE = /\s(?:alt|title|placeholder|aria-label|value)\s*=/i;

/**
 * The values inside the markup of a segment's parts; undefined when there are none. `find`
 * protects spans of them as in the sentence (`<img alt="{count} files">`: text.ts).
 */
export function markupValues(
  parts: readonly SegmentPart[],
  find?: SpanFinder,
): MarkupValues | undefined {
  let splices: Map<Markup, Splice[]> | undefined;
  const segments: PlaceholderSegment[] = [];
  for (const part of parts) {
    if (typeof part === "string" || part.role === "close" && !part.markup.startsWith("](")) {
      continue;
    }
    const own = part.markup.startsWith("<")
      ? htmlValues(part.markup, segments, find)
      : titleValue(part, segments, find);
    if (own) (splices ??= new Map()).set(part, own);
  }
  if (!splices) return undefined;
  const values = splices;
  return {
    segments,
    render: (translated) => (markup) => {
      const own = values.get(markup);
      return own ? spliceItem(markup.markup, own, translated) : markup.markup;
    },
  };
}

/** An inline HTML start tag's translated attributes, as the HTML format reads them. */
function htmlValues(
  tag: string,
  segments: PlaceholderSegment[],
  find?: SpanFinder,
): Splice[] | undefined {
  if (!MAY_HAVE_VALUE.test(tag)) return undefined;
  const first = (scannedTokens(tag) ?? parse5Tokens(tag))[0];
  if (first?.start !== 0 || !first.attributes) return undefined;
  const splices: Splice[] = [];
  for (const [start, end] of first.attributes) {
    // A value over lines holds the next line's prefix (`> ` in a block quote): left as written.
    if (/[\r\n]/.test(tag.slice(start, end))) continue;
    const segment = segments.push(attributeSegment(tag, start, end, HTML_IN_MARKDOWN, find)) - 1;
    splices.push({ start, end, segment });
  }
  return splices.length > 0 ? splices : undefined;
}

/**
 * HTML's attribute readings, written back for a Markdown line: an engine's line break would end
 * the heading, row or paragraph around the tag (a space instead), and a `|` would add a table
 * column (`&#124;`, which the attribute reads as `|` wherever it stands).
 */
export const HTML_IN_MARKDOWN: TextRules = (() => {
  const readings = new Map<string, TextReading>();
  const inMarkdown = (quote: string): TextReading => {
    const reading = HTML_TEXT.attribute(quote);
    return {
      ...reading,
      escape: (text) =>
        reading.escape(text.replace(/\s*[\r\n]+\s*/g, " ")).replaceAll("|", "&#124;"),
    };
  };
  return {
    text: HTML_TEXT.text,
    attribute: (quote) => {
      const key = quote === '"' || quote === "'" ? quote : "unquoted";
      return readings.get(key) ?? readings.set(key, inMarkdown(quote)).get(key)!;
    },
  };
})();

/**
 * The title of a link's or image's resource: in a link's or image's closing markup
 * (`](url "Title")`), or in one kept whole (`![](url "Title")`, no alt).
 */
function titleValue(
  part: Markup,
  segments: PlaceholderSegment[],
  find?: SpanFinder,
): Splice[] | undefined {
  const { markup } = part;
  let open: number;
  if (part.role === "close") open = 1;
  else if (markup.startsWith("![](")) open = 3;
  else if (markup.startsWith("[](")) open = 2;
  else return undefined;
  const title = titleIn(markup, open);
  if (!title) return undefined;
  const [start, end] = title;
  const reading = TITLE_READINGS[markup[start - 1] as keyof typeof TITLE_READINGS];
  const text = markup.slice(start, end);
  const parts = protectSpans(text, reading.atoms);
  // As in text: a changed title keeps the author's references (`T&amp;C`).
  const escape = keepingReferences(
    reading.escape,
    parts.filter((part) => typeof part === "string"),
    reading.decode,
    { backslash: true },
  );
  const segment = buildSegment(parts, { ...reading, escape, find });
  return [{ start, end, segment: segments.push(segment) - 1 }];
}

/**
 * [start, end) of the title's text in a resource `(destination "title")` starting at `open`
 * and ending the markup; undefined without a title, or one over lines (a line's prefix in a
 * block quote would be read as its text).
 */
export function titleIn(markup: string, open: number): [number, number] | undefined {
  if (markup[open] !== "(" || !markup.endsWith(")") || /[\r\n]/.test(markup)) return undefined;
  let at = skipSpaces(markup, open + 1);
  if (markup[at] === "<") {
    while (at < markup.length && markup[at] !== ">") at += markup[at] === "\\" ? 2 : 1;
    at++;
  } else {
    for (let depth = 0; at < markup.length; at++) {
      const char = markup[at];
      if (char === "\\") at++;
      else if (char === "(") depth++;
      else if (char === ")" && depth-- === 0) break;
      else if (char === " " || char === "\t") break;
    }
  }
  const quote = skipSpaces(markup, at);
  const closer = { '"': '"', "'": "'", "(": ")" }[markup[quote]];
  if (closer === undefined || quote === at) return undefined;
  let end = quote + 1;
  while (end < markup.length && markup[end] !== closer) end += markup[end] === "\\" ? 2 : 1;
  if (skipSpaces(markup, end + 1) !== markup.length - 1) return undefined;
  return end > quote + 1 ? [quote + 1, end] : undefined;
}

function skipSpaces(text: string, at: number): number {
  while (text[at] === " " || text[at] === "\t") at++;
  return at;
}

/** Backslash escapes in a title are kept whole, as in text. */
const ESCAPES = matchedSpans(/\\[!-/:-@[-`{-~]/g);

/**
 * How a title reads and how a changed one is written back inside its delimiters: no line
 * break, a backslash before punctuation and the delimiters escaped, `&` that would start a
 * reference written `&amp;`.
 */
function titleReading(delimiters: RegExp): TextReading {
  const reading = textReading(
    decodeMarkdownReference,
    (text) =>
      text.replace(/\s*[\r\n]+\s*/g, " ").replace(/\\(?=[!-/:-@[-`{-~]|$)/g, "\\\\")
        .replace(delimiters, "\\$&").replace(REFERENCE_LIKE, "&amp;")
        // In a table row a `|` would add a column; `\\|` reads as `|` anywhere.
        .replaceAll("|", "\\|"),
  );
  const atoms = reading.atoms;
  return { ...reading, atoms: (text) => [...ESCAPES(text), ...atoms(text)] };
}

/** By the title's opening delimiter. */
const TITLE_READINGS = {
  '"': titleReading(/"/g),
  "'": titleReading(/'/g),
  "(": titleReading(/[()]/g),
};
