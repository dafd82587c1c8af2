/**
 * The fast reader of the Markdown syntax tree (markdown_syntax.ts): marked's lexer, with the
 * constructs marked lacks added as extensions (front matter, math, footnotes), turned into
 * micromark's token types with source offsets.
 *
 * Why: micromark, a character-by-character state machine, took 0.5–0.7 ms for a 500-byte
 * README, as long as a whole plain-text request; marked's regular-expression lexer takes about a
 * fifth of that. marked gives every token's `raw` source but lexes a block quote's or list
 * item's content with its prefixes removed (and CRLF as LF, `\|` in cells and `\[` in labels
 * unescaped), so offsets are found by aligning each raw with the source, skipping only what
 * marked drops. Whatever does not align, and the constructs where marked departs from
 * CommonMark in a way that would move a segment's bounds, make this reader decline
 * (`undefined`), and micromark reads the document.
 */
import type { Token, Tokens } from "marked";
import { DECLINE, lexMarkdown } from "./markdown_marked_lexer.ts";
import { frontMatterEnd } from "./markdown_front_matter.ts";
import {
  afterBlankLine,
  endsAtBreak,
  literalAutolinkAgrees,
  markedMayRead,
  notIndentedAfter,
  plainText,
} from "./markdown_marked_guards.ts";
import type { Syntax } from "./markdown_syntax.ts";

/** The syntax tree of a Markdown document from marked, or undefined when marked declines. */
export function markedSyntax(source: string): Syntax | undefined {
  const body = frontMatterEnd(source);
  if (!markedMayRead(source, body)) return undefined;
  const root: Syntax = { type: "root", start: 0, end: source.length, children: [] };
  SOURCE = source;
  try {
    cursor = body;
    blocks(lexMarkdown(source.slice(body)), root.children);
    return root;
  } catch {
    // DECLINE, or marked's own error (its loop guard): micromark reads the document.
    return undefined;
  } finally {
    SOURCE = "";
  }
}

// The document being read and the position reached in it: module state, as marked's lexer
// is synchronous and the read is not re-entered.
let SOURCE = "";
let cursor = 0;
let start = 0;

/**
 * Finds `raw` in the source at `cursor` or after it, skipping only what marked drops from the
 * source (container prefixes `>` and indentation, CR before LF, the `\` of `\|` and `\[`) and
 * the spaces it adds (tabs expanded): sets `start` to its first character, returns its end.
 */
function locate(raw: string): number {
  // Most raws are the source as written: one comparison, not a walk per character.
  if (SOURCE.startsWith(raw, cursor)) {
    start = cursor;
    return cursor + raw.length;
  }
  let at = cursor;
  let first = -1;
  for (let i = 0; i < raw.length;) {
    const want = raw.charCodeAt(i);
    const have = SOURCE.charCodeAt(at);
    if (want === have) {
      if (first < 0) first = at;
      i++;
      at++;
    } else if (
      have === 32 || have === 9 || have === 62 || have === 13 || have === 92 || have === 10
    ) {
      at++;
    } else if (want === 32) i++;
    else throw DECLINE;
  }
  start = first < 0 ? at : first;
  return at;
}

/** Moves the cursor past `raw`, returning [start, end). */
function place(raw: string): [number, number] {
  const end = locate(raw);
  cursor = end;
  return [start, end];
}

function node(type: string, from: number, to: number, children: Syntax[] = []): Syntax {
  return { type, start: from, end: to, children };
}

/** Block tokens, in order, from the cursor on. */
function blocks(tokens: readonly Token[], out: Syntax[]): void {
  let check: Syntax | undefined;
  for (const token of tokens) {
    switch (token.type) {
      case "paragraph":
      case "text": {
        const paragraph = textBlock("paragraph", token.tokens, token.raw);
        if (check && paragraph) paragraph.children.unshift(check);
        check = undefined;
        if (paragraph) out.push(paragraph);
        break;
      }
      case "checkbox": {
        const [from] = place(token.raw);
        check = node("taskListCheck", from, from + 3);
        break;
      }
      case "heading":
        heading(token as Tokens.Heading, out);
        break;
      case "blockquote":
        // A lazy line (no `>`): micromark ends a quoted fence or math block before it.
        if (/\n(?![ \t]*>)/.test(token.raw.trimEnd())) throw DECLINE;
        container("blockQuote", token, (token as Tokens.Blockquote).tokens, 0, out);
        break;
      case "list":
        for (const item of (token as Tokens.List).items) {
          const marker = /^ {0,3}(?:[*+-]|\d{1,9}[.)])/.exec(item.raw)![0].length;
          container("listItem", item, item.tokens, marker, out);
          if (!endsAtBreak(SOURCE, cursor)) throw DECLINE;
        }
        break;
      case "footnoteDefinition": {
        const label = (token as unknown as { label: string }).label.length;
        container("gfmFootnoteDefinition", token, token.tokens!, label, out);
        if (!endsAtBreak(SOURCE, cursor)) throw DECLINE;
        break;
      }
      case "table":
        table(token as Tokens.Table, out);
        break;
      case "html": {
        const [from, to] = place(token.raw);
        if (!afterBlankLine(SOURCE, from)) throw DECLINE;
        let end = to;
        while (end > from && /[\r\n]/.test(SOURCE[end - 1])) end--;
        out.push(node("htmlFlow", from, end));
        break;
      }
      case "def":
        place(token.raw);
        if (!notIndentedAfter(SOURCE, cursor)) throw DECLINE;
        break;
      case "space":
      case "code":
      case "hr":
      case "mathFlow":
        place(token.raw);
        break;
      default:
        throw DECLINE;
    }
  }
}

/** A container: its blocks are read from after its marker (`-`, `1.`, `[^x]:`). */
function container(
  type: string,
  token: { raw: string },
  tokens: readonly Token[],
  marker: number,
  out: Syntax[],
): void {
  const end = locate(token.raw);
  const own = node(type, start, end);
  cursor = start + marker;
  blocks(tokens, own.children);
  cursor = end;
  out.push(own);
}

function heading(token: Tokens.Heading, out: Syntax[]): void {
  const [from, to] = place(token.raw);
  const setext = token.raw.trimEnd().includes("\n");
  const marker = setext ? 0 : /^[ \t]*#+/.exec(SOURCE.slice(from, to))![0].length;
  cursor = from + marker;
  const text = textBlock(setext ? "setextHeadingText" : "atxHeadingText", token.tokens);
  cursor = to;
  out.push(node(setext ? "setextHeading" : "atxHeading", from, to, text ? [text] : []));
}

/**
 * A block whose inline tokens are segment text, from the cursor. The range is trimmed of the
 * white space micromark leaves outside it (indentation, trailing spaces, the final line end).
 */
function textBlock(type: string, tokens: readonly Token[] | undefined, raw?: string) {
  const children: Syntax[] = [];
  const end = raw === undefined ? undefined : locate(raw);
  if (raw !== undefined) cursor = start;
  inlines(tokens ?? [], children);
  if (end !== undefined) cursor = end;
  const first = children[0];
  const last = children.at(-1);
  if (!first || !last) return undefined;
  if (first.type === "data") {
    while (first.start < first.end && /[ \t]/.test(SOURCE[first.start])) first.start++;
    if (first.start === first.end) children.shift();
  }
  if (last.type === "data" && children.length) {
    while (last.end > last.start && /\s/.test(SOURCE[last.end - 1])) last.end--;
    if (last.start === last.end) children.pop();
  }
  if (children.length === 0) return undefined;
  return node(type, children[0].start, children.at(-1)!.end, children);
}

/** Inline tokens, in order, from the cursor on. */
function inlines(tokens: readonly Token[], out: Syntax[]): void {
  for (const token of tokens) {
    if (token.raw === "") continue;
    const before = cursor;
    const [from, to] = place(token.raw);
    // What marked dropped between two tokens (a `>` prefix) is text, as in micromark's stream.
    if (from > before) out.push(node("data", before, from));
    switch (token.type) {
      case "text":
        if (!plainText(SOURCE, from, to)) throw DECLINE;
        out.push(node("data", from, to));
        break;
      case "escape":
        out.push(node("data", from, to));
        break;
      case "em":
      case "strong":
      case "del": {
        const type = token.type === "em"
          ? "emphasis"
          : token.type === "strong"
          ? "strong"
          : "strikethrough";
        const opener = token.type === "del"
          ? /^~+/.exec(token.raw)![0].length
          : token.type === "em"
          ? 1
          : 2;
        // Runs of three or more (`***a***`, `____`) pair differently in marked.
        if (/^(?:\*{3}|_{3})|(?:\*{3}|_{3})$/.test(token.raw)) throw DECLINE;
        const content: Syntax[] = [];
        cursor = from + opener;
        inlines(token.tokens ?? [], content);
        const inner = content.length
          ? node(`${type}Text`, from + opener, content.at(-1)!.end, content)
          : undefined;
        cursor = to;
        out.push(node(type, from, to, inner ? [inner] : []));
        break;
      }
      case "link":
      case "image":
        out.push(link(token as Tokens.Link | Tokens.Image, from, to));
        break;
      case "codespan":
        out.push(node("codeText", from, to));
        break;
      case "br": {
        // micromark's break is the `\\` or the trailing spaces; the line end after it is text.
        const lineEnd = SOURCE[from] === "\\" ? from + 1 : SOURCE.indexOf("\n", from);
        const breakEnd = SOURCE[lineEnd - 1] === "\r" ? lineEnd - 1 : lineEnd;
        out.push(
          node(SOURCE[from] === "\\" ? "hardBreakEscape" : "hardBreakTrailing", from, breakEnd),
        );
        if (breakEnd < to) out.push(node("data", breakEnd, to));
        break;
      }
      case "html":
        out.push(node("htmlText", from, to));
        break;
      case "mathText":
        out.push(node("mathText", from, to));
        break;
      case "footnoteCall":
        out.push(node("gfmFootnoteCall", from, to));
        break;
      case "checkbox": // a loose list item's `[ ]`, inside its paragraph
        out.push(node("taskListCheck", from, from + 3));
        break;
      default:
        throw DECLINE;
    }
  }
}

/** A link or image: its label's text, then how it points (resource, reference or none). */
function link(token: Tokens.Link | Tokens.Image, from: number, to: number): Syntax {
  if ("autolink" in token && token.autolink) {
    if (SOURCE[from] === "<") return node("autolink", from, to);
    if (!literalAutolinkAgrees(SOURCE, token.raw, from, to)) throw DECLINE;
    return node("literalAutolink", from, to);
  }
  const opener = token.type === "image" ? 2 : 1;
  const content: Syntax[] = [];
  cursor = from + opener;
  inlines(token.tokens ?? [], content);
  const labelEnd = content.length ? content.at(-1)!.end : from + opener;
  cursor = to;
  if (SOURCE[labelEnd] !== "]") throw DECLINE;
  const after = SOURCE[labelEnd + 1];
  const label = node("label", from, labelEnd + 1, [
    node("labelText", from + opener, labelEnd, content),
  ]);
  if (after === "(") return node(token.type, from, to, [label, node("resource", labelEnd + 1, to)]);
  if (after === "[" && SOURCE[labelEnd + 2] !== "]") {
    return node(token.type, from, to, [
      label,
      node("reference", labelEnd + 1, to, [node("referenceString", labelEnd + 2, to - 1)]),
    ]);
  }
  return node(token.type, from, to, [label]);
}

/**
 * A table: marked gives cells without their source, so each row's cells are found between its
 * pipes. A row with more cells than the header declines (micromark keeps the extra cells).
 */
function table(token: Tokens.Table, out: Syntax[]): void {
  const [from, to] = place(token.raw);
  if (!afterBlankLine(SOURCE, from)) throw DECLINE;
  const own = node("table", from, to);
  cursor = from;
  row(token.header, "tableHeader", own.children);
  cursor = nextLine(nextLine(cursor)); // past the delimiter row
  for (const cells of token.rows) {
    row(cells, "tableData", own.children);
    const next = SOURCE.indexOf("\n", cursor);
    cursor = next < 0 || next > to ? to : next + 1;
  }
  cursor = to;
  out.push(own);
}

function nextLine(at: number): number {
  const end = SOURCE.indexOf("\n", at);
  if (end < 0) throw DECLINE;
  return end + 1;
}

function row(cells: readonly Tokens.TableCell[], type: string, out: Syntax[]): void {
  const skipSpace = () => {
    while (/[ \t>]/.test(SOURCE[cursor] ?? "")) cursor++;
  };
  skipSpace();
  if (SOURCE[cursor] === "|") cursor++;
  cells.forEach((cell, index) => {
    skipSpace();
    if (index > 0) {
      if (SOURCE[cursor] !== "|") return; // a short row: marked filled it with empty cells
      cursor++;
      skipSpace();
    }
    const content = textBlock("tableContent", cell.tokens);
    out.push(
      node(type, content?.start ?? cursor, content?.end ?? cursor, content ? [content] : []),
    );
  });
  skipSpace();
  if (SOURCE[cursor] === "|") cursor++;
  while (/[ \t]/.test(SOURCE[cursor] ?? "")) cursor++;
  if (cursor < SOURCE.length && !/[\r\n]/.test(SOURCE[cursor])) throw DECLINE;
}
