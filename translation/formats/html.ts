/**
 * `format: "html"`: an HTML fragment or document, read by parse5's HTML5 tokenizer with source
 * offsets into a light element tree (html_tree.ts).
 *
 * The source is read as a flat sequence of tokens (text, tags, comments) taken from the tree's
 * offsets. A block's run of text and inline tags is one segment, so inline elements stay inside
 * their sentence; block tags, never-translated elements and stray end tags of block elements
 * separate segments and are kept (a stray inline end tag stays in its sentence as a
 * placeholder). The output is the source with translated runs spliced in by offset: nothing is
 * re-serialised, so a malformed page keeps its shape.
 *
 * Translated attributes (`alt`, `title`, `placeholder`, `aria-label`) are segments of their own;
 * a tag inside a sentence renders its translated attributes through the placeholder's render
 * hook.
 */
import { type CutItem, type Format, type Splice, spliceItem } from "./format.ts";
import { type HtmlElement, type HtmlNode, htmlTree, type Range } from "./html_tree.ts";
import {
  atom,
  buildSegment,
  close,
  type Markup,
  matchedSpans,
  open,
  type PlaceholderSegment,
  protectSpans,
  type SegmentPart,
  type SpanFinder,
} from "./placeholders.ts";
import { spanFinder } from "./text.ts";

/** Elements whose content is never translated. */
const NEVER_TRANSLATED = new Set([
  "script",
  "style",
  "code",
  "pre",
  "kbd",
  "samp",
  "var",
  "math",
  "svg",
  "textarea",
  "noscript",
  "template",
]);
/** Elements that stay inside their sentence. */
const INLINE = new Set([
  "a",
  "abbr",
  "b",
  "bdi",
  "bdo",
  "big",
  "br",
  "button",
  "cite",
  "code",
  "data",
  "del",
  "dfn",
  "em",
  "font",
  "i",
  "img",
  "input",
  "ins",
  "kbd",
  "label",
  "mark",
  "math",
  "q",
  "s",
  "samp",
  "small",
  "span",
  "strike",
  "strong",
  "sub",
  "sup",
  "svg",
  "time",
  "tt",
  "u",
  "var",
  "wbr",
]);
const VOID = new Set(["br", "img", "input", "wbr"]);
const TRANSLATED_ATTRIBUTES = new Set(["alt", "title", "placeholder", "aria-label"]);
const ENTITIES = matchedSpans(/&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);?/gi);
const NOTRANSLATE_CLASS = /(?:^|\s)notranslate(?:\s|$)/;
/** Finds the first non-space from `lastIndex` (global, so no slice is needed). */
const NON_SPACE = /\S/g;

/** A piece of the source: text, a tag, a comment, or a range kept as it is. */
interface Token {
  start: number;
  end: number;
  kind: "text" | "open" | "close" | "atom" | "break";
  /** Pairs a start tag with its end tag: the start tag's offset. */
  name?: string;
  /** [start, end) of the values of translated attributes. */
  attributes?: [number, number][];
  /** A text token holding only white space. */
  blank?: boolean;
}

/** HTML fragments and documents. */
export const htmlFormat: Format = {
  cut: (text, options) => cutHtml(text, spanFinder(options.mode)),
};

/** Cuts an HTML item; `find` protects further spans of text (message mode). */
export function cutHtml(source: string, find?: SpanFinder): CutItem {
  const tokens: Token[] = [];
  walk(htmlTree(source), true, tokens, source);
  return cutTokens(source, tokens, find);
}

/** The tokens of `nodes` in source order (the tree is in source order). */
function walk(nodes: readonly HtmlNode[], translating: boolean, tokens: Token[], source: string) {
  for (const node of nodes) {
    if (node.kind === "text") {
      NON_SPACE.lastIndex = node.start;
      const visible = NON_SPACE.exec(source);
      const blank = visible === null || visible.index >= node.end;
      tokens.push({ ...range(node, translating ? "text" : "break"), blank });
    } else if (node.kind === "comment") {
      tokens.push(range(node, "atom"));
    } else if (node.kind === "doctype") {
      tokens.push(range(node, "break"));
    } else if (node.kind === "stray") {
      // An end tag that closes nothing: inside a sentence when it is an inline element's.
      tokens.push(range(node, translating && INLINE.has(node.name!) ? "atom" : "break"));
    } else if (node.kind === "element") {
      element(node, translating, tokens, source);
    }
  }
}

function element(node: HtmlElement, translating: boolean, tokens: Token[], source: string) {
  const name = node.name;
  const inline = INLINE.has(name);
  const says = translateAttribute(node);
  const refused = says === "no" || saysNotranslate(node);
  if (NEVER_TRANSLATED.has(name) || (translating && refused && !saysYesInside(node))) {
    // Kept whole: inside a sentence it is one placeholder, between blocks it separates them.
    tokens.push(range(node, inline ? "atom" : "break"));
    return;
  }
  const inner = says === "yes" || (translating && !refused);
  const pair = String(node.start);
  tokens.push({
    ...range(node.startTag, !inner || !inline ? "break" : VOID.has(name) ? "atom" : "open"),
    name: pair,
    attributes: inner ? attributeValues(node, source) : [],
  });
  walk(node.children, inner, tokens, source);
  if (node.endTag) {
    tokens.push({ ...range(node.endTag, inner && inline ? "close" : "break"), name: pair });
  }
}

function range({ start, end }: Range, kind: Token["kind"]): Token {
  return { start, end, kind };
}

function translateAttribute(node: HtmlElement): string | undefined {
  return node.attributes.find((attribute) => attribute.name === "translate")?.value.toLowerCase();
}

function saysNotranslate(node: HtmlElement): boolean {
  const classes = node.attributes.find((attribute) => attribute.name === "class")?.value;
  return classes !== undefined && NOTRANSLATE_CLASS.test(classes);
}

function saysYesInside(node: HtmlElement): boolean {
  return node.children.some((child) =>
    child.kind === "element" && (translateAttribute(child) === "yes" || saysYesInside(child))
  );
}

/** [start, end) of each translated attribute's value inside its tag. */
function attributeValues(node: HtmlElement, source: string): [number, number][] {
  const values: [number, number][] = [];
  for (const attribute of node.attributes) {
    const location = node.attributeLocations[attribute.name];
    if (!TRANSLATED_ATTRIBUTES.has(attribute.name) || !location) continue;
    const written = source.slice(location.startOffset, location.endOffset);
    const equals = /^[^=]*=\s*(["']?)/.exec(written);
    if (!equals) continue;
    const start = location.startOffset + equals[0].length;
    const end = location.endOffset - equals[1].length;
    if (end > start) values.push([start, end]);
  }
  return values;
}

/** Groups tokens into sentence segments and attribute segments, spliced back by offset. */
function cutTokens(source: string, tokens: Token[], find?: SpanFinder): CutItem {
  const segments: PlaceholderSegment[] = [];
  const splices: Splice[] = [];
  /** Tags inside a sentence segment, rendered with their translated attributes. */
  const tagOf = new Map<Markup, Token>();
  const attributeSplices = new Map<Token, Splice[]>();

  for (const token of tokens) {
    for (const [start, end] of token.attributes ?? []) {
      const escape = attributeEscape(source[start - 1]);
      const segment = segments.push(buildSegment(textParts(source.slice(start, end)), { escape })) -
        1;
      attributeSplices.set(token, [...(attributeSplices.get(token) ?? []), {
        start,
        end,
        segment,
      }]);
    }
  }
  const attributeCount = segments.length;
  const insideSentences = new Set<Token>();
  for (const group of sentenceGroups(tokens)) {
    const parts = group.flatMap((token): SegmentPart[] => {
      const written = source.slice(token.start, token.end);
      if (token.kind === "text") return textParts(written);
      const markup = token.kind === "open"
        ? open(written, token.name!)
        : token.kind === "close"
        ? close(written, token.name ?? `unpaired-${token.start}`)
        : atom(written);
      if (attributeSplices.has(token)) {
        tagOf.set(markup, token);
        insideSentences.add(token);
      }
      return [markup];
    });
    const segment = segments.push(buildSegment(parts, { find, escape: escapeText })) - 1;
    splices.push({ start: group[0].start, end: group.at(-1)!.end, segment });
  }
  for (const [token, own] of attributeSplices) {
    if (!insideSentences.has(token)) splices.push(...own);
  }
  splices.sort((a, b) => a.start - b.start);

  return {
    segments,
    assemble(translated) {
      // Attribute segments come first and need no render hook; sentences render their tags
      // with the translated attributes.
      const attributes = translated.slice(0, attributeCount).map((rendered) => rendered());
      const render = (markup: Markup) => {
        const token = tagOf.get(markup);
        if (!token) return markup.markup;
        const own = attributeSplices.get(token)!.map((splice) => ({
          ...splice,
          start: splice.start - token.start,
          end: splice.end - token.start,
        }));
        return spliceItem(markup.markup, own, attributes);
      };
      const sentences = translated.slice(attributeCount).map((rendered) => rendered(render));
      return spliceItem(source, splices, [...attributes, ...sentences]);
    },
  };
}

/** Translated text must not open a tag: `<` before a name becomes `&lt;`. */
function escapeText(text: string): string {
  return text.replace(/&(?=[#a-zA-Z])/g, "&amp;").replace(/<(?=[a-zA-Z/!?])/g, "&lt;");
}

/** Translated attribute values keep their quoting: the quote, or for unquoted ones any space. */
function attributeEscape(quote: string): (text: string) => string {
  if (quote === '"') {
    return (text) => text.replace(/&(?=[#a-zA-Z])/g, "&amp;").replaceAll('"', "&quot;");
  }
  if (quote === "'") {
    return (text) => text.replace(/&(?=[#a-zA-Z])/g, "&amp;").replaceAll("'", "&#39;");
  }
  return (text) =>
    text.replace(/&(?=[#a-zA-Z])/g, "&amp;").replace(
      /[\s"'=<>`]/g,
      (char) => `&#${char.codePointAt(0)};`,
    );
}

/** Text with its entities as atoms, so they come back as written. */
function textParts(text: string): SegmentPart[] {
  return protectSpans(text, ENTITIES);
}

/**
 * Runs of adjacent text and inline tokens holding a letter, trimmed of what need not go to the
 * engine: outer atoms, blank text, an element wrapping the whole run, a stray close or open.
 */
function sentenceGroups(tokens: Token[]): Token[][] {
  const groups: Token[][] = [];
  let current: Token[] = [];
  const flush = () => {
    const trimmed = trimGroup(current);
    if (trimmed.some((token) => token.kind === "text")) groups.push(trimmed);
    current = [];
  };
  for (const token of tokens) {
    const last = current.at(-1);
    if (token.kind === "break" || (last && last.end !== token.start)) flush();
    if (token.kind !== "break") current.push(token);
  }
  flush();
  return groups;
}

function trimGroup(group: Token[]): Token[] {
  let first = 0;
  let last = group.length - 1;
  for (let changed = true; changed && first <= last;) {
    changed = false;
    const head = group[first];
    const tail = group[last];
    if (head.kind === "atom" || head.kind === "close" || isBlank(head)) {
      first++;
      changed = true;
    } else if (tail.kind === "atom" || tail.kind === "open" || isBlank(tail)) {
      last--;
      changed = true;
    } else if (
      head.kind === "open" && tail.kind === "close" && head.name === tail.name && first < last
    ) {
      first++;
      last--;
      changed = true;
    }
  }
  return group.slice(first, last + 1);
}

function isBlank(token: Token): boolean {
  return token.kind === "text" && token.blank === true;
}
