/**
 * Whether a Markdown item is MDX, and the copy of it the Markdown readers read then.
 *
 * An item is MDX where it has an ESM statement at the top level (`import X from "y"`), a JSX
 * component's tag opening a line (`<Tabs>`, `</TabItem>`: a name with a capital) or a JSX tag
 * with an expression among its props (`<Button onClick={() => go()}>`), none of them inside
 * code. Plain Markdown has none of these (`import` in a fence, `List<String>` in prose), so it
 * reads as CommonMark, indented code and all; an MDX item is read as MDX reads its blocks: no
 * indented code (content indented under a component is text).
 *
 * A JSX tag CommonMark cannot read as one (an expression among its props, `when={a > b}`, where
 * `>` ends an HTML tag; a tag over several lines, whose `>` alone on a line opens a block quote)
 * is read in a copy where its expression props are spaces and its line breaks too: an HTML tag
 * of the same length, so every offset of the copy is the item's, and the cut takes its bytes
 * from the item (the tag kept as written, its `label` still translated). So is an expression over
 * several lines (`{\n  items.map((x) => x.name)\n}`), as an HTML comment: kept whole. An ESM
 * statement reads on over blank lines until its brackets close, as MDX reads it.
 *
 * Pure: no I/O.
 */
import { isKeptParagraph, JSX_TAG } from "./markdown_extensions.ts";
import { esmEnd, expressionEnd } from "./markdown_mdx_code.ts";
import { mdxSyntax, type Syntax } from "./markdown_syntax.ts";

/** An item as the cut reads it. */
export interface MdxReading {
  /** Its blocks. */
  tree: Syntax;
  /** The copy of the item its blocks were read from, every offset the item's. */
  read: string;
  /** [start, end) of the ESM blocks, whose parts are never sent. */
  kept: [number, number][];
}

/** Syntax whose inside is code, where nothing says MDX and no tag is read. */
const CODE = new Set(["codeText", "mathText"]);
/**
 * Blocks whose text may say MDX (the readers leave code blocks out of the tree, so what is in
 * none of these is code or markers).
 */
const PROSE = new Set(["paragraph", "htmlFlow", "atxHeading", "setextHeading", "table"]);
/** An indented line after a blank one: indented code to CommonMark, text to MDX. */
const INDENTED = /(?:^|\n)[ \t]*\r?\n(?: {4}|[ \t]*\t)[ \t]*\S/;
/** A tag's start: where a JSX tag is tried. */
const TAG_START = /<[A-Za-z]/g;
/** A tag tried at a `<` (sticky). */
const TAG_AT = new RegExp(JSX_TAG, "y");
/**
 * A tag's next prop (sticky), the white space before it: a name, its value quoted or an
 * expression (group 1: its `{`), or an expression alone (`{...props}`, group 2).
 */
const PROP = /\s+(?:[A-Za-z_:][\w:.-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|(\{)))?|(\{))/y;
/** A component's tag opening a line (a capital name, its closing tag too). */
const COMPONENT_LINE = /(?:^|[\r\n])[ \t>]*<\/?[A-Z]/g;
/** Characters without which an item holds no MDX signal here (checked before reading on). */
const MAY_BE_MDX = /<|(?:^|[\r\n])(?:import|export)[ \t]/;

/** An HTML comment's marks, what an expression over lines is read as. */
const [COMMENT_OPEN, COMMENT_CLOSE] = ["<!--", "-->"];

/**
 * How an item is read: where it is MDX, from a copy with the JSX tags CommonMark cannot read as
 * one and the expressions over lines masked, without indented code, its ESM blocks found; else
 * as `tree`, the item read as CommonMark.
 */
export function mdxReading(
  source: string,
  tree: Syntax,
  read: (source: string) => Syntax,
): MdxReading {
  const plain = { tree, read: source, kept: [] };
  if (!MAY_BE_MDX.test(source)) return plain;
  const prose: [number, number][] = [];
  const code: [number, number][] = [];
  textRanges(tree, prose, code);
  const inCode = (at: number) => !within(prose, at) || within(code, at);
  const kept: [number, number][] = [];
  for (const child of tree.children) {
    if (child.type !== "paragraph" || source[child.start] === "\\") continue;
    if (!isKeptParagraph(source, child.start, child.end)) continue;
    const end = esmEnd(source, child.start);
    kept.push([child.start, Math.max(child.end, end)]);
  }
  let mdx = kept.length > 0;
  for (const found of source.matchAll(COMPONENT_LINE)) {
    if (mdx) break;
    mdx = !inCode(found.index + found[0].length - 1);
  }
  const masked: [number, number][] = [];
  for (const found of source.matchAll(TAG_START)) {
    TAG_AT.lastIndex = found.index;
    if (!TAG_AT.test(source) || inCode(found.index)) continue;
    const end = TAG_AT.lastIndex;
    const tag = source.slice(found.index, end);
    const expression = expressionProps(tag).length > 0;
    if (!expression && !/[\r\n]/.test(tag)) continue;
    mdx ||= expression;
    masked.push([found.index, end]);
  }
  if (!mdx) return plain;
  const inKept = (at: number) => within(kept, at);
  const tags = masked.filter(([start]) => !inKept(start));
  const expressions = multilineExpressions(source, (at) => inCode(at) || inKept(at), tags);
  const copy = withMasks(source, [...tags, ...expressions]);
  // micromark, the one reader told to read no indented code, only where there is some: it is
  // many times slower than the fast readers on long documents.
  if (INDENTED.test(source)) return { tree: mdxSyntax(copy), read: copy, kept };
  return { tree: copy === source ? tree : read(copy), read: copy, kept };
}

/**
 * The expressions over several lines of `source` outside code and ESM (`skip`) and outside the
 * tags masked, at least as long as an HTML comment: MDX reads every `{` in text as one. Its
 * comments (`{/*`) are kept apart (markdown_extensions.ts).
 */
function multilineExpressions(
  source: string,
  skip: (at: number) => boolean,
  tags: readonly [number, number][],
): [number, number][] {
  // One pass, braces paired by a stack (a scan from each `{` took the square of a paragraph of
  // unclosed ones); quotes are not read, as prose around holds apostrophes.
  const found: [number, number][] = [];
  const opens: number[] = [];
  let tag = 0;
  for (let at = source.search(/[{}]/); at !== -1 && at < source.length; at++) {
    const char = source[at];
    if (char !== "{" && char !== "}") continue;
    while (tag < tags.length && tags[tag][1] <= at) tag++;
    if ((tag < tags.length && tags[tag][0] <= at) || skip(at)) continue;
    if (char === "{") opens.push(at);
    else if (opens.length > 0) {
      const start = opens.pop()!;
      const expression = source.slice(start, at + 1);
      const comment = expression.startsWith("{/*");
      if (opens.length === 0 && !comment && expression.length >= 7 && /[\r\n]/.test(expression)) {
        found.push([start, at + 1]);
      }
    }
  }
  return found;
}

/** `source` with each masked range written as CommonMark reads MDX there, same length. */
function withMasks(source: string, ranges: [number, number][]): string {
  if (ranges.length === 0) return source;
  ranges.sort((a, b) => a[0] - b[0]);
  let copy = "";
  let at = 0;
  for (const [start, end] of ranges) {
    if (start < at) continue;
    const written = source.slice(start, end);
    copy += source.slice(at, start) +
      (written[0] === "{" ? maskedExpression(written) : maskedTag(written));
    at = end;
  }
  return copy + source.slice(at);
}

/** An expression as an HTML comment of the same length, on one line. */
function maskedExpression(expression: string): string {
  const inner = expression.length - COMMENT_OPEN.length - COMMENT_CLOSE.length;
  return COMMENT_OPEN + " ".repeat(inner) + COMMENT_CLOSE;
}

/** A JSX tag as an HTML tag of the same length: expression props and line breaks as spaces. */
function maskedTag(tag: string): string {
  let masked = "";
  let at = 0;
  for (const [start, end] of expressionProps(tag)) {
    masked += tag.slice(at, start) + " ".repeat(end - start);
    at = end;
  }
  return (masked + tag.slice(at)).replace(/[\r\n]/g, " ");
}

/** [start, end) of the props of `tag` that hold an expression, each with its name. */
function expressionProps(tag: string): [number, number][] {
  const props: [number, number][] = [];
  PROP.lastIndex = tag.search(/[\s/>]/);
  for (let found = PROP.exec(tag); found !== null; found = PROP.exec(tag)) {
    if (found[1] === undefined && found[2] === undefined) continue;
    const start = found.index + found[0].search(/\S/);
    const end = expressionEnd(tag, PROP.lastIndex - 1);
    if (end === -1) break;
    props.push([start, end]);
    PROP.lastIndex = end;
  }
  return props;
}

/**
 * Whether `at` falls in one of `ranges` (in source order, apart): a binary search, as a page may
 * hold thousands of tags and code spans.
 */
function within(ranges: readonly [number, number][], at: number): boolean {
  let [low, high] = [0, ranges.length - 1];
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (ranges[middle][1] <= at) low = middle + 1;
    else if (ranges[middle][0] > at) high = middle - 1;
    else return true;
  }
  return false;
}

/** Adds the ranges of prose blocks inside `node` to `prose`, of code inside them to `code`. */
function textRanges(node: Syntax, prose: [number, number][], code: [number, number][]): void {
  for (const child of node.children) {
    if (CODE.has(child.type)) code.push([child.start, child.end]);
    else if (PROSE.has(child.type)) {
      prose.push([child.start, child.end]);
      textRanges(child, [], code);
    } else textRanges(child, prose, code);
  }
}
