/**
 * `format: "markdown"`: CommonMark + GFM (tables, task lists, strikethrough, autolinks,
 * footnotes), front matter and math, parsed by mdast-util-from-markdown with source offsets.
 *
 * Paragraphs, headings and table cells are segments (list items, block quotes and footnotes
 * hold paragraphs). Inside a segment, emphasis, links and image alts keep their markers as
 * paired placeholders; inline code, math, autolinks, footnote references, escapes, entities and
 * line breaks with their `>`/indent prefixes are kept whole. Code, front matter, math blocks,
 * reference definitions and thematic breaks are never sent; HTML blocks follow the HTML rules.
 * Output is the source with translated runs spliced in by offset, so every marker, line and
 * blank line stays as written (re-serialising mdast would turn `_x_` into `*x*`).
 */
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { mathFromMarkdown } from "mdast-util-math";
import { frontmatter } from "micromark-extension-frontmatter";
import { gfm } from "micromark-extension-gfm";
import { math } from "micromark-extension-math";
import { combineCuts, type CutItem, type CutPart, type Format } from "./format.ts";
import { cutHtml } from "./html.ts";
import {
  atom,
  buildSegment,
  close,
  open,
  type SegmentPart,
  type SpanFinder,
} from "./placeholders.ts";
import { spanFinder } from "./text.ts";

/** The part of an mdast node this module reads. */
interface MdNode {
  type: string;
  referenceType?: string;
  children?: MdNode[];
  position?: { start: { offset?: number }; end: { offset?: number } };
}

const FRONT_MATTER = ["yaml", "toml"] as const;
/** Blocks whose content is segment text. */
const TEXT_BLOCKS = new Set(["paragraph", "heading", "tableCell"]);
/** Inline nodes whose markers wrap translated children. */
const WRAPPERS = new Set(["emphasis", "strong", "delete", "link", "linkReference"]);
/** Kept whole inside text: line breaks with their prefixes, escapes, entities. */
const KEPT_IN_TEXT = /[ \t]*\r?\n[ \t>]*|\\[!-/:-@[-`{-~]|&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);/gi;
const HTML_OPEN = /^<([a-zA-Z][\w-]*)(?:\s[^<>]*)?>$/;
const HTML_CLOSE = /^<\/([a-zA-Z][\w-]*)\s*>$/;

// Built once: building the extensions on every call cost more than the parse itself.
const PARSER_OPTIONS = {
  extensions: [gfm(), frontmatter([...FRONT_MATTER]), math()],
  mdastExtensions: [
    gfmFromMarkdown(),
    frontmatterFromMarkdown([...FRONT_MATTER]),
    mathFromMarkdown(),
  ],
};

/** Markdown. */
export const markdownFormat: Format = {
  cut: (text, options) => cutMarkdown(text, spanFinder(options.mode)),
};

/** Cuts a Markdown item; `find` protects further spans of text (message mode). */
export function cutMarkdown(source: string, find?: SpanFinder): CutItem {
  const tree = fromMarkdown(source, PARSER_OPTIONS) as MdNode;
  const parts: CutPart[] = [];
  blocks(tree, source, parts, find);
  return combineCuts(source, parts);
}

function blocks(node: MdNode, source: string, parts: CutPart[], find?: SpanFinder): void {
  for (const child of node.children ?? []) {
    const [start, end] = offsets(child);
    if (TEXT_BLOCKS.has(child.type)) {
      const inner = child.children ?? [];
      if (inner.length === 0) continue;
      const [from] = offsets(inner[0]);
      const [, to] = offsets(inner.at(-1)!);
      const segment = buildSegment(childParts(child, source, from, to), { find });
      parts.push({ start: from, end: to, cut: { segments: [segment], assemble: ([r]) => r() } });
    } else if (child.type === "html") {
      parts.push({ start, end, cut: cutHtml(source.slice(start, end), find) });
    } else if (child.children) {
      blocks(child, source, parts, find);
    }
    // code, front matter, math, definitions and thematic breaks are kept as written.
  }
}

/** The parts of a node's children from `from` to `to`; gaps between them are kept whole. */
function childParts(node: MdNode, source: string, from: number, to: number): SegmentPart[] {
  const parts: SegmentPart[] = [];
  let at = from;
  for (const child of node.children ?? []) {
    const [start, end] = offsets(child);
    if (start > at) parts.push(atom(source.slice(at, start)));
    parts.push(...inline(child, source));
    at = end;
  }
  if (to > at) parts.push(atom(source.slice(at, to)));
  return parts;
}

function inline(node: MdNode, source: string): SegmentPart[] {
  const [start, end] = offsets(node);
  const written = source.slice(start, end);
  if (node.type === "text") return textParts(written);
  if (isLabel(node)) return [atom(written)];
  if (node.type === "image" || node.type === "imageReference") return image(written, start);
  if (node.type === "html") return [htmlTag(written)];
  const children = node.children ?? [];
  if (!WRAPPERS.has(node.type) || children.length === 0 || isAutolink(node, written)) {
    return [atom(written)]; // inline code and math, breaks, footnote references, autolinks
  }
  const [first] = offsets(children[0]);
  const [, last] = offsets(children.at(-1)!);
  const name = `md${start}`;
  return [
    open(source.slice(start, first), name),
    ...childParts(node, source, first, last),
    close(source.slice(last, end), name),
  ];
}

/** `[text][]` and `[text]`: the text is the reference's label, so translating it unlinks it. */
function isLabel(node: MdNode): boolean {
  return (node.type === "linkReference" || node.type === "imageReference") &&
    node.referenceType !== "full";
}

/** `<https://…>` and GFM's bare URLs: the link text is the address itself. */
function isAutolink(node: MdNode, written: string): boolean {
  if (node.type !== "link") return false;
  const children = node.children ?? [];
  const [start, end] = offsets(node);
  return written.startsWith("<") ||
    (children.length === 1 && offsets(children[0])[0] === start &&
      offsets(children[0])[1] === end);
}

/** `![alt](src "title")`: the alt is translated between the markers. */
function image(written: string, start: number): SegmentPart[] {
  const altEnd = closingBracket(written, 2);
  if (!written.startsWith("![") || altEnd === -1 || altEnd === 2) return [atom(written)];
  const name = `md${start}`;
  return [
    open("![", name),
    ...textParts(written.slice(2, altEnd)),
    close(written.slice(altEnd), name),
  ];
}

/** Offset of the `]` closing the bracket opened just before `from`, or -1. */
function closingBracket(text: string, from: number): number {
  let depth = 0;
  for (let at = from; at < text.length; at++) {
    const char = text[at];
    if (char === "\\") at++;
    else if (char === "[") depth++;
    else if (char === "]" && depth-- === 0) return at;
  }
  return -1;
}

/** Inline HTML: an opening or closing tag pairs up by name; anything else is kept whole. */
function htmlTag(written: string): SegmentPart {
  const opening = HTML_OPEN.exec(written);
  if (opening) return open(written, opening[1].toLowerCase());
  const closing = HTML_CLOSE.exec(written);
  if (closing) return close(written, closing[1].toLowerCase());
  return atom(written);
}

/** Text with its line breaks (and their prefixes), escapes and entities kept whole. */
function textParts(text: string): SegmentPart[] {
  const parts: SegmentPart[] = [];
  let at = 0;
  for (const match of text.matchAll(KEPT_IN_TEXT)) {
    if (match.index > at) parts.push(text.slice(at, match.index));
    parts.push(atom(match[0]));
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

function offsets(node: MdNode): [number, number] {
  return [node.position?.start.offset ?? 0, node.position?.end.offset ?? 0];
}
