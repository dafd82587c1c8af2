/**
 * HTML5's rules for where an element ends without its end tag, as far as the cut needs them: a
 * `<p>` closed by the next block, `<li>` by the next item, cells and rows by the next cell or
 * row, a heading by the next heading, every element by its parent's end tag or the end of the
 * item. parse5's full tree construction (foster parenting, cloned formatting elements, implied
 * `html`, `head` and `body`) cost three times its tokenizer and only moved text the cut puts
 * back by offset. Where the tree puts text back inside an element not translated that these
 * rules closed (a reopened `code`, an end tag a browser ignores), html_reopened.ts asks parse5.
 */

/** How a tokenizer reads an element's content when not as markup (HTML5's tokenizer states). */
export type TextMode = "rawtext" | "rcdata" | "script" | "plaintext";

/** Elements without content or end tag. */
export const VOID_ELEMENTS: ReadonlySet<string> = new Set([
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
 * `constructor` must not find `Object.prototype`'s. `noscript` is not here: its content is read
 * as a browser without scripts reads it, as markup, since that is when a reader sees it ("This
 * app needs JavaScript" is translated); `template`'s is markup either way.
 */
export const TEXT_MODES: ReadonlyMap<string, TextMode> = new Map([
  ["script", "script"],
  ["style", "rawtext"],
  ["xmp", "rawtext"],
  ["iframe", "rawtext"],
  ["noembed", "rawtext"],
  ["noframes", "rawtext"],
  ["textarea", "rcdata"],
  ["title", "rcdata"],
  ["plaintext", "plaintext"],
]);
/** Elements whose content is foreign (no raw text, `/>` closes an element). */
export const FOREIGN_ELEMENTS: ReadonlySet<string> = new Set(["svg", "math"]);

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
    // A ruby's parts end at the next part (an `rt` inside an `rtc` leaves the `rtc` open).
    rb: { closes: ["rb", "rt", "rtc", "rp"], within: ["ruby"] },
    rtc: { closes: ["rb", "rt", "rtc", "rp"], within: ["ruby"] },
    rt: { closes: ["rb", "rt", "rp"], within: ["ruby"] },
    rp: { closes: ["rb", "rt", "rp"], within: ["ruby"] },
  }).map(([name, { closes, within }]) => [name, { closes, within: new Set(within) }]),
);
const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
/** Elements an open `<p>` does not reach past (the button scope, roughly). */
const P_SCOPE = new Set(["button", "table", "td", "th", "caption", "html", "template"]);

/** Start tags that may close an open element: {@link openAfter} has nothing to do for others. */
export const CLOSING_TAGS: ReadonlySet<string> = new Set([
  ...CLOSES_P,
  ...HEADINGS,
  ...CLOSES.keys(),
]);

/**
 * Where the `<p>` a block start tag closes is among the open elements, as seen from the one
 * pushed at `index` named `name` (`below`: as seen from the one under it): -1 where none is
 * open or a boundary is nearer. Kept for each open element, so that a block start tag finds its
 * `<p>` at once: walked for, nested `<div>` or `<ul><li>` took the square of their depth
 * (64,000 code points of them, 0.16 and 0.62 s).
 */
export function pInScope(below: number, name: string, index: number): number {
  if (name === "p") return index;
  return P_SCOPE.has(name) ? -1 : below;
}

/**
 * How many of the open elements' names (outermost first; index 0 is the item itself, never closed)
 * stay open when a start tag of `name` comes: an open `<p>`, the previous heading, item, cell
 * or row ends there, with everything inside it. `p`: each open element's {@link pInScope}.
 */
export function openAfter(open: readonly string[], p: readonly number[], name: string): number {
  let kept = open.length;
  if (CLOSES_P.has(name)) {
    const index = p[kept - 1];
    if (index !== -1) kept = index;
  }
  if (HEADINGS.has(name) && HEADINGS.has(open[kept - 1])) kept--;
  const rule = CLOSES.get(name);
  if (rule) {
    const index = openIndex(open, kept, rule.closes, rule.within);
    if (index !== -1) kept = index;
  }
  return kept;
}

/**
 * The deepest of the first `count` open elements named one of `names`, not past a `within`
 * boundary; or -1.
 */
function openIndex(
  open: readonly string[],
  count: number,
  names: readonly string[],
  within: ReadonlySet<string>,
): number {
  for (let index = count - 1; index > 0; index--) {
    if (names.includes(open[index])) return index;
    if (within.has(open[index])) return -1;
  }
  return -1;
}
