/**
 * The element tree of an HTML item, with source offsets, built from the tokens of an HTML5
 * tokenizer: the fast scanner (html_scanner.ts) where it reads the item as parse5 would, else
 * parse5's own (html_tokenizer.ts).
 *
 * The cut needs little of a DOM: which element holds which text, and where each tag is. The
 * tokenizer reads the source the HTML5 way (tags, attributes with their offsets, comments,
 * entities, raw text in `script` and `style`, CDATA in SVG and MathML); the nesting is built
 * here with the rules that decide where an unclosed element ends (a `<p>` closed by the next
 * block, `<li>` by the next item, cells and rows by the next cell or row, every element by its
 * parent's end tag or the end of the item). A stray end tag belongs to no element. parse5's
 * full tree construction (foster parenting, cloned formatting elements, implied `html`, `head`
 * and `body`) cost three times the tokenizer and only moved text the cut puts back by offset.
 */

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

/** An attribute of a start tag: its name (lower case) and where `name=value` is written. */
export interface HtmlAttribute extends Range {
  name: string;
}

/** A start tag as a tokenizer read it. */
export interface StartTag extends Range {
  /** Lower case. */
  name: string;
  /** In source order; a repeated name is left out, as HTML5 says. */
  attributes: readonly HtmlAttribute[];
  /** The value of `translate`, entities decoded; undefined without one. */
  translate: string | undefined;
  /** The value of `class`, entities decoded; undefined without one. */
  classes: string | undefined;
  /** Written `<x/>` (closes a foreign element). */
  selfClosing: boolean;
}

/** An element: its tags, the attributes the cut reads, and children. */
export interface HtmlElement extends Range {
  kind: "element";
  name: string;
  attributes: readonly HtmlAttribute[];
  translate: string | undefined;
  classes: string | undefined;
  startTag: Range;
  /** Undefined when the element was closed by something else, or never. */
  endTag: Range | undefined;
  children: HtmlNode[];
}

/** A node of the tree. */
export type HtmlNode = HtmlLeaf | HtmlElement;

/** How a tokenizer reads an element's content when not as markup (HTML5's tokenizer states). */
export type TextMode = "rawtext" | "rcdata" | "script" | "plaintext";

/** The attributes of a tag without any, shared. */
export const NO_ATTRIBUTES: readonly HtmlAttribute[] = Object.freeze([]);

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
 * How an element's content is read, when not as markup. Maps, not records: a tag named
 * `constructor` must not find `Object.prototype`'s.
 */
const TEXT_MODES: ReadonlyMap<string, TextMode> = new Map([
  ["script", "script"],
  ["style", "rawtext"],
  ["xmp", "rawtext"],
  ["iframe", "rawtext"],
  ["noembed", "rawtext"],
  ["noframes", "rawtext"],
  ["noscript", "rawtext"],
  ["textarea", "rcdata"],
  ["title", "rcdata"],
  ["plaintext", "plaintext"],
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
const ONLY_P = ["p"];
/** Elements an open `<p>` does not reach past (the button scope, roughly). */
const P_SCOPE = new Set(["button", "table", "td", "th", "caption", "html", "template"]);

/**
 * Builds the tree from the tokens of a reader (html_scanner.ts, or parse5's tokenizer in
 * html_tokenizer.ts), in source order.
 */
export class TreeBuilder {
  readonly #root: HtmlElement;
  readonly #open: HtmlElement[];
  /** Elements inside `svg` or `math` are foreign: no raw text, `/>` closes them. */
  #foreign = 0;

  constructor(readonly source: string) {
    this.#root = {
      kind: "element",
      name: "#root",
      attributes: NO_ATTRIBUTES,
      translate: undefined,
      classes: undefined,
      startTag: { start: 0, end: 0 },
      endTag: undefined,
      start: 0,
      end: source.length,
      children: [],
    };
    this.#open = [this.#root];
  }

  /** Inside `svg` or `math` (where parse5 reads CDATA sections). */
  get inForeign(): boolean {
    return this.#foreign > 0;
  }

  /** Text from `start` to `end`; text next to text is one node. */
  text(start: number, end: number): void {
    const children = this.#current().children;
    const last = children[children.length - 1];
    if (last?.kind === "text" && last.end === start) last.end = end;
    else this.#append({ kind: "text", start, end });
  }

  /** A comment or a doctype. */
  leaf(kind: "comment" | "doctype", start: number, end: number): void {
    this.#append({ kind, start, end });
  }

  /**
   * A start tag; returns how the reader must read the element's content when not as markup
   * (the raw text of `script`, `style`, `textarea`...).
   */
  startTag(tag: StartTag): TextMode | undefined {
    const { name, start, end } = tag;
    if (this.#foreign === 0) this.#closeImplied(name, start);
    const element: HtmlElement = {
      kind: "element",
      name,
      attributes: tag.attributes,
      translate: tag.translate,
      classes: tag.classes,
      startTag: { start, end },
      endTag: undefined,
      start,
      end,
      children: [],
    };
    this.#append(element);
    const isForeign = this.#foreign > 0 || FOREIGN.has(name);
    if (isForeign ? tag.selfClosing : VOID.has(name)) return undefined;
    this.#open.push(element);
    if (isForeign) this.#foreign++;
    else return TEXT_MODES.get(name);
    return undefined;
  }

  /** An end tag: closes its element and the ones inside it, or is stray. */
  endTag(name: string, start: number, end: number): void {
    const open = this.#open;
    let index = open.length - 1;
    while (index >= 0 && open[index].name !== name) index--;
    if (index < 1) {
      this.#append({ kind: "stray", name, start, end });
      return;
    }
    this.#closeUpTo(index + 1, start);
    open[index].endTag = { start, end };
    this.#closeTop(end);
  }

  /** The end of the item: what is still open ends there. Returns the item's children. */
  finish(): HtmlNode[] {
    this.#closeUpTo(1, this.source.length);
    return this.#root.children;
  }

  /**
   * Adds a child to the current element. A first child gets an array of one: most elements
   * have one, and an array grown by `push` starts with room for 16.
   */
  #append(node: HtmlNode): void {
    const parent = this.#current();
    if (parent.children.length === 0) parent.children = [node];
    else parent.children.push(node);
  }

  #current(): HtmlElement {
    return this.#open[this.#open.length - 1];
  }

  #closeTop(end: number): void {
    this.#open.pop()!.end = end;
    if (this.#foreign > 0) this.#foreign--;
  }

  #closeUpTo(index: number, end: number): void {
    while (this.#open.length > index) this.#closeTop(end);
  }

  /** Closes what a start tag of `name` ends: an open `<p>`, the previous item, cell or row. */
  #closeImplied(name: string, at: number): void {
    const open = this.#open;
    if (CLOSES_P.has(name)) {
      const p = openIndex(open, ONLY_P, P_SCOPE);
      if (p !== -1) this.#closeUpTo(p, at);
    }
    if (HEADINGS.has(name) && HEADINGS.has(open[open.length - 1].name)) {
      this.#closeUpTo(open.length - 1, at);
    }
    const rule = CLOSES.get(name);
    if (rule) {
      const index = openIndex(open, rule.closes, rule.within);
      if (index !== -1) this.#closeUpTo(index, at);
    }
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
