/**
 * `format: "markdown"`: CommonMark + GFM (tables, task lists, strikethrough, autolinks,
 * footnotes), front matter and math, parsed by micromark with source offsets.
 *
 * Paragraphs, headings and table cells are segments (list items, block quotes and footnotes
 * hold paragraphs). Inside a segment, emphasis, links and image alts keep their markers as
 * paired placeholders; inline code, math, autolinks, footnote references, escapes, references
 * for white space or controls and line breaks with their `>`/indent prefixes are kept whole
 * (other references, `&lt;` and a mid-run `&nbsp;` read as characters; a `<wbr>` inside a word
 * is no placeholder: markdown_segment.ts). Code, front matter, math blocks,
 * reference definitions, thematic breaks, MDX's ESM and comments on lines of their own and
 * LaTeX's `\[` math are never sent (an MDX comment or expression in prose is one placeholder,
 * whatever CommonMark reads in it: markdown_mdx_inline.ts); HTML
 * blocks follow the HTML rules; an MkDocs admonition's indented body is Markdown, not code
 * (markdown_admonition_body.ts).
 * Output is the source with translated runs spliced in by offset, so every marker, line and
 * blank line stays as written (re-serialising a tree would turn `_x_` into `*x*`).
 *
 * The tree (markdown_syntax.ts) has micromark's token types and source offsets, not mdast:
 * only the kinds and offsets of the syntax are needed here, and building mdast cost more than
 * the parse itself.
 */
import { combineCuts, type CutItem, type CutPart, type Format } from "./format.ts";
import { cutHtmlBlock } from "./markdown_html_block.ts";
import { alertMarkerLength } from "./markdown_alert.ts";
import { admonitionBody } from "./markdown_admonition_body.ts";
import {
  atom,
  close,
  type Escape,
  isAddressOnly,
  open,
  type PlaceholderSegment,
  type SegmentPart,
  type SpanFinder,
} from "./placeholders.ts";
import { withoutOuterSpace } from "./placeholder_parts.ts";
import { markedSyntax } from "./markdown_marked.ts";
import { scanSyntax } from "./markdown_scan.ts";
import { micromarkSyntax, type Syntax } from "./markdown_syntax.ts";
import { mdxReading } from "./markdown_mdx_source.ts";
import { spanFinder } from "./text.ts";
import { htmlTag, keptWhole } from "./markdown_inline_html.ts";
import { markdownEscape, withoutAddedLines } from "./markdown_escape.ts";
import { markdownSegment } from "./markdown_segment.ts";
import {
  isKeptParagraph,
  markerTitles,
  mdxCommentBlocks,
  withoutExtensionEnds,
} from "./markdown_extensions.ts";
import { MDX_SPAN, withMdxSpans } from "./markdown_mdx_inline.ts";
import { MARKDOWN_TEXT, textParts } from "./markdown_text_parts.ts";
import { type MarkupValues, markupValues } from "./markdown_values.ts";

const BOM = "\uFEFF";
/** Blocks whose content is segment text, and the child that holds it (or the block itself). */
const TEXT_BLOCKS: Readonly<Record<string, string | undefined>> = {
  paragraph: undefined,
  atxHeading: "atxHeadingText",
  setextHeading: "setextHeadingText",
  tableHeader: "tableContent",
  tableData: "tableContent",
};
/** Blocks never sent: code, front matter, math, definitions, thematic breaks. */
const KEPT_BLOCKS = new Set([
  "codeFenced",
  "codeIndented",
  "yaml",
  "toml",
  "mathFlow",
  "definition",
  "thematicBreak",
]);
/** Inline syntax whose markers wrap translated content, and the child holding the content. */
const WRAPPERS: Readonly<Record<string, string>> = {
  emphasis: "emphasisText",
  strong: "strongText",
  strikethrough: "strikethroughText",
};
/** Inline syntax kept whole: code, math, hard breaks, footnote references, autolinks. */
const KEPT_INLINE = new Set([
  "codeText",
  "mathText",
  "hardBreakEscape",
  "hardBreakTrailing",
  "gfmFootnoteCall",
  "autolink",
  "literalAutolink",
  MDX_SPAN,
]);
/** How a changed run is written back, by where its block stands. */
const PARAGRAPH_ESCAPE = markdownEscape({ startsLine: true, cell: false, heading: false });
const HEADING_ESCAPE = markdownEscape({ startsLine: false, cell: false, heading: true });
/** A marker line's title (`:::tip Title`): inside its line, a heading's `#` rules aside. */
const TITLE_ESCAPE = markdownEscape({ startsLine: false, cell: false, heading: false });
const CELL_ESCAPE = markdownEscape({ startsLine: false, cell: true, heading: false });
/**
 * How a changed run of the text block [at, to) is escaped: where it stands says it (an ATX
 * heading's `#` or a table cell's `|` before it, spaces between; else a paragraph's, whose
 * start could start another block). Readers name blocks differently; the source says it for
 * all.
 */
function escapeAt(source: string, at: number, to: number): Escape {
  let before = at - 1;
  while (before >= 0 && (source[before] === " " || source[before] === "\t")) before--;
  if (source[before] === "#") return HEADING_ESCAPE;
  if (source[before] === "|") return CELL_ESCAPE;
  // A row's first cell may have no `|` before it: the `|` right after it says it is a cell. A
  // `|` inside the block is text of a paragraph (`May 10 | June 11`), where `10.` starts a list.
  let after = to;
  while (source[after] === " " || source[after] === "\t") after++;
  return source[after] === "|" ? CELL_ESCAPE : PARAGRAPH_ESCAPE;
}

/** Markdown. */
export const markdownFormat: Format = {
  cut: (text, options) => cutMarkdown(text, spanFinder(options.mode)),
};

/**
 * The syntax tree from our own scanner where it reads the document, else from marked where it
 * can place every token, else from micromark.
 */
export function markdownSyntax(source: string): Syntax {
  return scanSyntax(source) ?? markedSyntax(source) ?? micromarkSyntax(source);
}

/**
 * Cuts a Markdown item; `find` protects further spans of text (message mode); `read` gives the
 * syntax tree (the tests compare the fast reader's cut with micromark's).
 */
export function cutMarkdown(
  source: string,
  find?: SpanFinder,
  read: (source: string) => Syntax = markdownSyntax,
): CutItem {
  // A byte order mark (Windows editors write one) is no text: read past it, as micromark does,
  // or a heading or front matter after it reads as a paragraph.
  const body = source.startsWith(BOM) ? source.slice(1) : source;
  let parts: CutPart[] = [];
  // An MDX item's blocks are read as MDX reads them (markdown_mdx_source.ts).
  const mdx = mdxReading(body, read(body), read);
  blocks(mdx.tree, body, parts, { find, read: mdx.read });
  const comments = [...mdxCommentBlocks(body), ...mdx.kept];
  if (comments.length > 0) {
    parts = parts.filter((part) =>
      !comments.some(([start, end]) => start <= part.start && part.end <= end)
    );
  }
  const cut = combineCuts(body, parts);
  if (body === source) return cut;
  return { segments: cut.segments, assemble: (translated) => BOM + cut.assemble(translated) };
}

/** `options.read`: the copy of `source` an HTML block's tags are read from. */
function blocks(
  node: Syntax,
  source: string,
  parts: CutPart[],
  options: { find?: SpanFinder; read: string },
): void {
  const { find } = options;
  for (const child of node.children) {
    if (child.type === "paragraph" && isKeptParagraph(source, child.start, child.end)) continue;
    if (child.type in TEXT_BLOCKS) {
      const holder = TEXT_BLOCKS[child.type];
      const content = holder ? child.children.find((inner) => inner.type === holder) : child;
      if (content) textBlock(content, source, parts, find);
      const body = child.type === "paragraph" &&
        admonitionBody(source, child.start, child.end, (text) => cutMarkdown(text, find));
      if (body) parts.push(body);
    } else if (child.type === "htmlFlow") {
      parts.push({
        start: child.start,
        end: child.end,
        cut: cutHtmlBlock(source, [child.start, child.end], options),
      });
    } else if (!KEPT_BLOCKS.has(child.type)) {
      blocks(child, source, parts, options);
    }
  }
}

/** One segment from a block's inline content; a task list's `[ ]` stays outside it. */
function textBlock(content: Syntax, source: string, parts: CutPart[], find?: SpanFinder): void {
  let inline = content.children.some(isTaskListCheck)
    ? content.children.filter((child) => !isTaskListCheck(child))
    : content.children;
  if (inline.length === 0) return;
  let from = inline[0].start;
  let to = inline.at(-1)!.end;
  if (inline.length < content.children.length) {
    while (from < to && (source[from] === " " || source[from] === "\t")) from++;
  }
  // An alert's or callout's marker opening a block quote stays outside, with the line break
  // after it (or the spaces before its title).
  from = Math.min(to, from + alertMarkerLength(source.slice(from, from + 80)));
  if (from >= to) return;
  // So do directive fences opening or closing it and an attribute block ending it; the titles
  // of those opening it are segments of their own (where the fences stay in, so do they).
  const [start, end] = withoutExtensionEnds(source, from, to);
  const bounded = start === from && end === to ? inline : within(inline, start, end);
  if (bounded) {
    for (const [at, until] of markerTitles(source, from, start)) {
      parts.push({ start: at, end: until, cut: titleCut(source, at, until, inline, find) });
    }
    [from, to, inline] = [start, end, bounded];
  }
  if (from >= to) return;
  let inlines: readonly SegmentPart[] = keptWhole(inlineParts(inline, source, [], from));
  // A reference for white space at an edge stays outside, as the white space does.
  const edges = withoutOuterSpace(inlines, MARKDOWN_TEXT.isSpace);
  if (edges.inner !== inlines && written(inlines) === source.slice(from, to)) {
    [inlines, from, to] = [edges.inner, from + edges.before, to - edges.after];
  }
  const segment = markdownSegment(inlines, escapeAt(source, from, to), find);
  const values = markupValues(inlines, find);
  parts.push({
    start: from,
    end: to,
    cut: values
      ? withValues(segment, values, source.slice(from, to))
      : { segments: [segment], assemble: assembleOne(source.slice(from, to)) },
  });
}

/** The source bytes of parts. */
function written(parts: readonly SegmentPart[]): string {
  return parts.map((part) => typeof part === "string" ? part : part.markup).join("");
}

/**
 * A marker line's title: its own segment, read as the inline syntax `inline` of its block holds
 * it (`:::tip A *b*`: a changed title sent as text wrote `\*b\*`), as text where a bound cuts
 * through syntax; written back inside its line.
 */
function titleCut(
  source: string,
  start: number,
  end: number,
  inline: readonly Syntax[],
  find?: SpanFinder,
): CutItem {
  const nodes = within(inline, start, end);
  const inlines = nodes
    ? keptWhole(inlineParts(nodes, source, [], start))
    : textParts(source, start, end, []);
  return {
    segments: [markdownSegment(inlines, TITLE_ESCAPE, find)],
    assemble: ([rendered]) => rendered(),
  };
}

/**
 * A block whose markup holds translated values (titles, inline HTML's attributes): their
 * segments first, then the block's, rendered with their translations.
 */
function withValues(
  segment: PlaceholderSegment,
  values: MarkupValues,
  written: string,
): CutItem {
  return {
    segments: [...values.segments, segment],
    assemble(translated) {
      const own = translated.slice(0, -1).map((rendered) => rendered());
      return withoutAddedLines(translated.at(-1)!(values.render(own)), written);
    },
  };
}

/**
 * The inline syntax within [from, to): text cut at the bounds; undefined where a bound cuts
 * other syntax (that block keeps its ends).
 */
function within(inline: readonly Syntax[], from: number, to: number): Syntax[] | undefined {
  const kept: Syntax[] = [];
  for (const node of inline) {
    if (node.end <= from || node.start >= to) continue;
    const cut = node.start < from || node.end > to;
    if (cut && !isText(node)) return undefined;
    kept.push(
      cut ? { ...node, start: Math.max(node.start, from), end: Math.min(node.end, to) } : node,
    );
  }
  return kept;
}

function isTaskListCheck(node: Syntax): boolean {
  return node.type === "taskListCheck";
}

/** A block of one segment is its translation, with no line added (markdown_escape.ts). */
function assembleOne(written: string): CutItem["assemble"] {
  return ([rendered]) => withoutAddedLines(rendered(), written);
}

/**
 * Adds the parts of a run of inline syntax to `parts`; text pieces next to each other are one
 * text. Everything is added to one array: the arrays per node and their spreads were a tenth of
 * the Markdown cut's garbage. Nested syntax is walked with a stack of its own, not by recursion:
 * emphasis may nest 2,000 deep in one item (`**` × 2,000, a word, `**` × 2,000), deeper than
 * the call stack goes.
 */
function inlineParts(
  nodes: readonly Syntax[],
  source: string,
  parts: SegmentPart[],
  from?: number,
): SegmentPart[] {
  const stack: Run[] = [run(withMdxSpans(nodes, source, isText), from)];
  while (stack.length > 0) {
    const current = stack.at(-1)!;
    if (current.next === current.nodes.length) {
      if (current.textStart !== -1) textParts(source, current.textStart, current.at, parts);
      if (current.close) parts.push(current.close);
      stack.pop();
      continue;
    }
    const node = current.nodes[current.next++];
    if (isText(node)) {
      if (current.textStart === -1) current.textStart = current.at;
      current.at = node.end;
      continue;
    }
    if (current.textStart !== -1) textParts(source, current.textStart, node.start, parts);
    current.textStart = -1;
    if (node.start > current.at) parts.push(atom(source.slice(current.at, node.start)));
    current.at = node.end;
    const content = wrapped(node);
    if (content) {
      // Markers around translated content: open, the content's parts, close.
      const name = `md${node.start}`;
      parts.push(open(source.slice(node.start, content.start), name));
      const closing = close(source.slice(content.end, node.end), name);
      const text = source.slice(content.start, content.end);
      // A link's or emphasis's text that is one address (`[https://x.org](https://x.org)`) is
      // kept (references read: `info&#64;example.com`), as the HTML format keeps it: an engine
      // would take a URL for words.
      if (isAddressOnly(MARKDOWN_TEXT.decode(text))) parts.push(atom(text), closing);
      else stack.push(run(withMdxSpans(content.children, source, isText), undefined, closing));
    } else inline(node, source, parts);
  }
  return parts;
}

/** A run of inline syntax being walked, and the closing marker that follows it. */
interface Run {
  nodes: readonly Syntax[];
  next: number;
  at: number;
  textStart: number;
  close?: SegmentPart;
}

function run(nodes: readonly Syntax[], from?: number, close?: SegmentPart): Run {
  return { nodes, next: 0, at: from ?? nodes[0]?.start ?? 0, textStart: -1, close };
}

/** Whether a piece of inline syntax is text (data, escapes, line ends). */
function isText(node: Syntax): boolean {
  return !(node.type in WRAPPERS) && node.type !== "link" && node.type !== "image" &&
    node.type !== "htmlText" && !KEPT_INLINE.has(node.type);
}

/**
 * The translated content inside markers: emphasis, strong and strikethrough text, a link's
 * text (not of `[text][]` and `[text]`, where the text is the reference's label, so translating
 * it would unlink it).
 */
function wrapped(node: Syntax): Syntax | undefined {
  if (node.type in WRAPPERS) {
    return node.children.find((child) => child.type === WRAPPERS[node.type]);
  }
  if (node.type !== "link") return undefined;
  const text = linkText(node);
  return text && text.start !== text.end ? text : undefined;
}

/** A link's or image's text, unless it is only a reference's label. */
function linkText(node: Syntax): Syntax | undefined {
  const label = node.children.find((child) => child.type === "label");
  const text = label?.children.find((child) => child.type === "labelText");
  const reference = node.children.find((child) => child.type === "reference");
  const labelOnly = !node.children.some((child) => child.type === "resource") &&
    !reference?.children.some((child) => child.type === "referenceString");
  return labelOnly ? undefined : text;
}

/** Adds the parts of a piece of inline syntax that is not text and holds no translated run. */
function inline(node: Syntax, source: string, parts: SegmentPart[]): void {
  const text = node.type === "image" ? linkText(node) : undefined;
  if (text && text.start !== text.end) {
    // An alt is plain text: its `*` or `[` are not markup.
    const name = `md${node.start}`;
    parts.push(open(source.slice(node.start, text.start), name));
    textParts(source, text.start, text.end, parts);
    parts.push(close(source.slice(text.end, node.end), name));
  } else if (node.type === "htmlText") parts.push(htmlTag(source.slice(node.start, node.end)));
  else parts.push(atom(source.slice(node.start, node.end)));
}
