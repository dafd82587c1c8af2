/**
 * The element tree of an HTML item, with source offsets, from parse5's HTML5 tokenizer.
 *
 * The cut needs little of a DOM: which element holds which text, and where each tag is. parse5's
 * tokenizer (taking runs of plain characters at once, html_tokenizer.ts) reads the source the
 * HTML5 way (tags, attributes with their offsets, comments, entities, raw text in `script` and
 * `style`, CDATA in SVG and MathML); the nesting is built
 * here with the rules that decide where an unclosed element ends (a `<p>` closed by the next
 * block, `<li>` by the next item, cells and rows by the next cell or row, every element by its
 * parent's end tag or the end of the item). A stray end tag belongs to no element. parse5's
 * full tree construction (foster parenting, cloned formatting elements, implied `html`, `head`
 * and `body`) cost three times the tokenizer and only moved text the cut puts back by offset.
 */
import { type Token, type Tokenizer, TokenizerMode } from "parse5";
import { RunTokenizer } from "./html_tokenizer.ts";

/** [start, end) of a piece of the source. */
export interface Range {
  start: number;
  end: number;
}

/** Text, a comment, a doctype, or an end tag that closes no open element. */
export interface HtmlLeaf extends Range {
  kind: "text" | "comment" | "doctype" | "stray";
  /** The tag name of a stray end tag. */
  name?: string;
}

/** An element: its tags, attributes with the ranges of their `name=value`, and children. */
export interface HtmlElement extends Range {
  kind: "element";
  name: string;
  attributes: readonly Token.Attribute[];
  /** Where each attribute is written, `name="value"` whole (parse5's locations). */
  attributeLocations: Readonly<Record<string, Token.Location>>;
  startTag: Range;
  /** Undefined when the element was closed by something else, or never. */
  endTag?: Range;
  children: HtmlNode[];
}

/** A node of the tree. */
export type HtmlNode = HtmlLeaf | HtmlElement;

const VOID = new Set([
  "area",
  "base",
  "basefont",
  "bgsound",
  "br",
  "col",
  "embed",
  "frame",
  "hr",
  "img",
  "input",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);
/**
 * How the tokenizer reads an element's content, when not as markup. Maps, not records: a tag
 * named `constructor` must not find `Object.prototype`'s.
 */
const TEXT_MODES: ReadonlyMap<string, number> = new Map([
  ["script", TokenizerMode.SCRIPT_DATA],
  ["style", TokenizerMode.RAWTEXT],
  ["xmp", TokenizerMode.RAWTEXT],
  ["iframe", TokenizerMode.RAWTEXT],
  ["noembed", TokenizerMode.RAWTEXT],
  ["noframes", TokenizerMode.RAWTEXT],
  ["noscript", TokenizerMode.RAWTEXT],
  ["textarea", TokenizerMode.RCDATA],
  ["title", TokenizerMode.RCDATA],
  ["plaintext", TokenizerMode.PLAINTEXT],
]);
/** Start tags that close an open `<p>`. */
const CLOSES_P = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "center",
  "details",
  "dialog",
  "dir",
  "div",
  "dl",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "li",
  "dd",
  "dt",
  "listing",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "plaintext",
  "pre",
  "search",
  "section",
  "summary",
  "table",
  "ul",
  "xmp",
]);
/** A start tag closes these open elements, up to (not past) the boundaries. */
const CLOSES: ReadonlyMap<string, { closes: string[]; within: ReadonlySet<string> }> = new Map(
  Object.entries({
    li: { closes: ["li"], within: ["ul", "ol", "menu", "table"] },
    dd: { closes: ["dd", "dt"], within: ["dl", "table"] },
    dt: { closes: ["dd", "dt"], within: ["dl", "table"] },
    td: { closes: ["td", "th"], within: ["tr", "table"] },
    th: { closes: ["td", "th"], within: ["tr", "table"] },
    tr: { closes: ["tr", "td", "th"], within: ["table", "tbody", "thead", "tfoot"] },
    tbody: { closes: ["tbody", "thead", "tfoot", "tr", "td", "th"], within: ["table"] },
    thead: { closes: ["tbody", "thead", "tfoot", "tr", "td", "th"], within: ["table"] },
    tfoot: { closes: ["tbody", "thead", "tfoot", "tr", "td", "th"], within: ["table"] },
    option: { closes: ["option"], within: ["select", "datalist"] },
    optgroup: { closes: ["option", "optgroup"], within: ["select"] },
    a: { closes: ["a"], within: [] },
  }).map(([name, { closes, within }]) => [name, { closes, within: new Set(within) }]),
);
const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
const FOREIGN = new Set(["svg", "math"]);
/** Elements an open `<p>` does not reach past (the button scope, roughly). */
const P_SCOPE = new Set(["button", "table", "td", "th", "caption", "html", "template"]);

/** The attribute locations of a tag without attributes, shared. */
const NO_LOCATIONS: Readonly<Record<string, Token.Location>> = Object.freeze({});

/** Reads `source` into its tree: the children of the item, in source order. */
export function htmlTree(source: string): HtmlNode[] {
  const root: HtmlElement = {
    kind: "element",
    name: "#root",
    attributes: [],
    attributeLocations: {},
    startTag: { start: 0, end: 0 },
    start: 0,
    end: source.length,
    children: [],
  };
  const open: HtmlElement[] = [root];
  /** Elements inside `svg` or `math` are foreign: no raw text, `/>` closes them. */
  let foreign = 0;
  const current = () => open[open.length - 1];
  const closeTop = (end: number) => {
    open.pop()!.end = end;
    if (foreign > 0) foreign--;
  };
  const closeUpTo = (index: number, end: number) => {
    while (open.length > index) closeTop(end);
  };
  const text = (token: Token.CharacterToken) => {
    const location = token.location!;
    const children = current().children;
    const last = children[children.length - 1];
    if (last?.kind === "text" && last.end === location.startOffset) last.end = location.endOffset;
    else children.push({ kind: "text", start: location.startOffset, end: location.endOffset });
  };
  const leaf =
    (kind: "comment" | "doctype") => (token: Token.CommentToken | Token.DoctypeToken) => {
      const { startOffset, endOffset } = token.location!;
      current().children.push({ kind, start: startOffset, end: endOffset });
    };

  const tokenizer: Tokenizer = new RunTokenizer({ sourceCodeLocationInfo: true }, {
    onCharacter: text,
    onNullCharacter: text,
    onWhitespaceCharacter: text,
    onComment: leaf("comment"),
    onDoctype: leaf("doctype"),
    onEof: () => closeUpTo(1, source.length),
    onStartTag(token) {
      const location = token.location!;
      const name = token.tagName;
      if (foreign === 0) closeImplied(open, name, location.startOffset, closeUpTo);
      const element: HtmlElement = {
        kind: "element",
        name,
        attributes: token.attrs,
        attributeLocations: location.attrs ?? NO_LOCATIONS,
        startTag: { start: location.startOffset, end: location.endOffset },
        start: location.startOffset,
        end: location.endOffset,
        children: [],
      };
      current().children.push(element);
      const isForeign = foreign > 0 || FOREIGN.has(name);
      if (isForeign ? token.selfClosing : VOID.has(name)) return;
      open.push(element);
      if (isForeign) foreign++;
      else if (TEXT_MODES.has(name)) tokenizer.state = TEXT_MODES.get(name)!;
      tokenizer.inForeignNode = foreign > 0;
    },
    onEndTag(token) {
      const location = token.location!;
      const index = open.findLastIndex((element) => element.name === token.tagName);
      if (index < 1) {
        current().children.push({
          kind: "stray",
          name: token.tagName,
          start: location.startOffset,
          end: location.endOffset,
        });
        return;
      }
      closeUpTo(index + 1, location.startOffset);
      const element = open[index];
      element.endTag = { start: location.startOffset, end: location.endOffset };
      closeTop(location.endOffset);
      tokenizer.inForeignNode = foreign > 0;
    },
  });
  tokenizer.write(source, true);
  return root.children;
}

/** Closes what a start tag of `name` ends: an open `<p>`, the previous item, cell or row. */
function closeImplied(
  open: readonly HtmlElement[],
  name: string,
  at: number,
  closeUpTo: (index: number, end: number) => void,
): void {
  if (CLOSES_P.has(name)) {
    const p = openIndex(open, ["p"], P_SCOPE);
    if (p !== -1) closeUpTo(p, at);
  }
  if (HEADINGS.has(name) && HEADINGS.has(open[open.length - 1].name)) {
    closeUpTo(open.length - 1, at);
  }
  const rule = CLOSES.get(name);
  if (rule) {
    const index = openIndex(open, rule.closes, rule.within);
    if (index !== -1) closeUpTo(index, at);
  }
}

/** The deepest open element named one of `names`, not past a `within` boundary; or -1. */
function openIndex(
  open: readonly HtmlElement[],
  names: readonly string[],
  within: ReadonlySet<string>,
): number {
  for (let index = open.length - 1; index > 0; index--) {
    if (names.includes(open[index].name)) return index;
    if (within.has(open[index].name)) return -1;
  }
  return -1;
}
