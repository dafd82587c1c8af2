/**
 * Syntax of common Markdown extensions that CommonMark reads as text, kept from the engine:
 * attribute blocks (Pandoc's and kramdown's `## Title {#custom-id .class}`, MkDocs'
 * `{: .note}`, `![a](b.png){width=50%}`), wiki links (`[[Page Name]]`, Obsidian's `![[x.png]]`),
 * template tags (`{{ site.title }}`, `{% include x %}`), container directive fences (`:::note`,
 * `:::tip Title`, the closing `:::`: Docusaurus, remark-directive, MyST), MkDocs' admonition
 * and tab lines (`!!! note "Title"`, `=== "Tab"`: their titles are translated, as segments of
 * their own), definition markers (`: `) and abbreviation keys (`*[HTML]: `); a bracketed span's
 * brackets and attributes (`[text]{.class}`) wrap its translated text; MDX's comments, its
 * expressions in prose (`{props.name}`), a JSX tag with an expression among its props, a
 * fragment's `<>` and `</>`, and its
 * ESM blocks (`import X from "y"` at a line's start: Docusaurus reads `.md` files as MDX);
 * LaTeX's display math (`\[` and `\]` around a paragraph's lines). An
 * engine would take them for words (`{#ID-PERSONALIZADO}`), and the escape of a changed run would
 * write `\[\[Page\]\]`, a link no more.
 *
 * At a text block's ends (an attribute block after a heading's text, a marker line opening or
 * closing a paragraph) they are left out of the segment, so an engine cannot move them;
 * elsewhere they are protected spans (placeholders), as inline code is.
 */
import { matchedSpans, type SpanFinder } from "./placeholders.ts";

/** One attribute: `#id`, `.class`, `key=value` (value quoted or bare), or `-` (unnumbered). */
const ATTRIBUTE = String
  .raw`(?:#[^\s{}"'#]+|\.[^\s{}"'#.=]+|[A-Za-z_][\w:.-]*=(?:"[^"\r\n]{0,200}"|'[^'\r\n]{0,200}'|[^\s{}"']+)|-)`;
const ATTRIBUTES = String.raw`\{:?[ \t]*${ATTRIBUTE}(?:[ \t]+${ATTRIBUTE})*[ \t]*\}`;
const WIKI_LINK = String.raw`!?\[\[[^\[\]\r\n]+\]\]`;
/** Template tags of static site generators: Liquid's and Jinja's, Hugo's shortcodes. */
const TEMPLATE = String.raw`\{\{[^\r\n]{0,200}?\}\}|\{%[^\r\n]{0,200}?%\}`;
/**
 * A bracketed span (Pandoc, kramdown: `[text]{.smallcaps}`): its brackets and attributes are
 * markup around translated text (group 1).
 */
export const BRACKETED_SPAN = new RegExp(String.raw`\[([^\[\]\r\n]+)\]${ATTRIBUTES}`, "g");
/** An MDX comment, over lines too (a paragraph's text run holds its line breaks). */
const MDX_COMMENT = String.raw`\{/\*[^]{0,2000}?\*/\}`;
/**
 * An MDX expression in prose (`{props.name}`, `{new Date().getFullYear()}`, `{a ? "x" : "y"}`),
 * braces nested once: JavaScript, which a translation or an escape breaks. Only one holding
 * code's punctuation (a comparison's `<` or `>` too: `{a > b}`): a plain `{word}` is a variable (variable_spans.ts), and prose in braces
 * (`{red, green, blue}`) is text outside MDX.
 */
const MDX_EXPRESSION = String
  .raw`\{(?=[^{}\r\n]*[().?=[\]'"\`&|+<>])(?:[^{}\r\n]|\{[^{}\r\n]*\}){1,300}\}`;
/** A JSX prop's expression, braces nested twice (`style={{color: "red"}}`). */
const JSX_EXPRESSION = String.raw`\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}`;
const JSX_PROP = String
  .raw`(?:[A-Za-z_:][\w:.-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|${JSX_EXPRESSION}))?|${JSX_EXPRESSION})`;
/**
 * An MDX JSX tag CommonMark reads as text: one with an expression among its props
 * (`<img src={require('./a.png').default} />`, `<Button onClick={() => go()}>`), which no HTML
 * tag may hold. A tag CommonMark reads is inline HTML, never text, so only such a one is found.
 */
export const JSX_TAG = String.raw`<[A-Za-z][\w.:-]*(?:\s+${JSX_PROP})*\s*\/?>`;
/** A JSX fragment's tags (`<>`, `</>`): no HTML, so text to CommonMark (`</>` written `&lt;/>`). */
const JSX_FRAGMENT = String.raw`<\/?>`;
/** An MDX comment or expression at a `{` (sticky), read over the syntax CommonMark sees in it. */
export const MDX_INLINE = new RegExp(`${MDX_COMMENT}|${MDX_EXPRESSION}`, "y");
const INLINE = matchedSpans(
  new RegExp(
    `${JSX_TAG}|${JSX_FRAGMENT}|${ATTRIBUTES}|${WIKI_LINK}|${TEMPLATE}|${MDX_COMMENT}|${MDX_EXPRESSION}`,
    "g",
  ),
);
/**
 * An MDX ESM statement's start: after `import` a name then `,` or `from`, a `{`, a `*` or a
 * quote; after `export` a `{`, a `*` or a declaration's keyword. A sentence (`import the data
 * first.`) is none.
 */
const ESM =
  /^(?:import[ \t]+(?:[\w$]+[ \t]*,|[\w$]+[ \t]+from[ \t"']|[{*"'])|export[ \t]+(?:[{*]|(?:default|const|let|var|function|class|async)[ \t({*]))/;

/** LaTeX's display math as a paragraph: `\[` and `\]` on lines of their own (MathJax, arithmatex). */
const DISPLAY_MATH = /^\\\[[ \t]*(?:\r\n?|\n)[^]*(?:\r\n?|\n)[ \t>]*\\\][ \t]*$/;

/** An MDX comment on lines of its own. */
const MDX_COMMENT_LINES = new RegExp(
  String.raw`(?<=^|[\r\n])[ \t]*\{/\*[^]{0,20000}?\*/\}[ \t]*(?=[\r\n]|$)`,
  "g",
);

/**
 * The MDX comments of `source` on lines of their own, as [start, end) offsets: no block inside
 * one is sent. CommonMark reads blocks and emphasis there (a `{/**` line, then ` * Docs`: a
 * list item), which MDX never reads.
 */
export function mdxCommentBlocks(source: string): [number, number][] {
  if (!source.includes("{/*")) return [];
  return [...source.matchAll(MDX_COMMENT_LINES)].map((m) => [m.index, m.index + m[0].length]);
}

/**
 * Whether the paragraph [start, end) of `source` is kept whole: LaTeX's display math, or an MDX
 * ESM block, which opens its line (MDX reads ESM at the top level only, and a container's
 * paragraph has its prefix before it) with an `import` or `export` statement.
 */
export function isKeptParagraph(source: string, start: number, end: number): boolean {
  if (source[start] === "\\") return DISPLAY_MATH.test(source.slice(start, end));
  const before = source[start - 1];
  return (source[start] === "i" || source[start] === "e") &&
    (start === 0 || before === "\n" || before === "\r") &&
    ESM.test(source.slice(start, start + 80));
}
/** An attribute block that ends its line (tried at the line's last `{`). */
const ENDING_ATTRIBUTES = new RegExp(`^${ATTRIBUTES}[ \\t]*$`);
/**
 * A line kept whole: a directive fence (three colons or more), MkDocs' admonition
 * (`!!! note "Title"`, `??? tip`, `???+ tip`, `!!!Note`: the whole line as Python-Markdown
 * reads one, at most one space after the marker, its type any words of Python's `\w` and `-`,
 * a CSS class: `!!! Warning: do not run this` in a README is a sentence) or content tab
 * (`=== "Tab"`). Tried on a line's content to its end.
 */
const MARKER_LINE =
  /^(?::{3,}|(?:!!!|\?\?\?\+?)[ \t]?[\p{L}\p{N}_-]+(?:[ \t]+[\p{L}\p{N}_-]+)*(?:[ \t]+"[^\r\n]*")?[ \t]*$|={3}[!+]{0,2}[ \t]+")/u;
/** MkDocs' admonitions and tabs, whose body is indented under them (markdown_admonition_body.ts). */
const MKDOCS_LINE = /^(?:!!!|\?\?\?|===)/;

/** Whether the content [at, end) of a line is a marker line. */
function isMarkerLine(text: string, at: number, end = lineEnd(text, at)): boolean {
  return (text[at] === ":" || text[at] === "!" || text[at] === "?" || text[at] === "=") &&
    MARKER_LINE.test(text.slice(at, end));
}

/** Whether `line` (one line, no line break) is an MkDocs admonition or tab line. */
export function isMkDocsMarkerLine(line: string): boolean {
  return MKDOCS_LINE.test(line) && isMarkerLine(line, 0, line.length);
}

/** Whether a line of `text` (past its prefix) starts a definition (`: `), whose body is indented. */
export function holdsDefinition(text: string): boolean {
  return /(?:^|[\r\n][ \t>]*):[ \t]+[^ \t\r\n]/.test(text);
}
/**
 * A definition's marker (`: ` at a line's start, before its text: Pandoc, PHP Markdown Extra,
 * MkDocs). A line of only `:` and blanks is text: readers end its run before the blanks or after.
 */
const DEFINITION = /^:[ \t]+(?=[^ \t\r\n])/;
/**
 * An abbreviation's key (PHP Markdown Extra, MkDocs' abbr: `*[HTML]: Hyper Text …`): kept, its
 * definition (shown as the abbreviation's title) translated.
 */
const ABBREVIATION = /^\*\[[^\[\]\r\n]+\]:[ \t]*/;

/** Extension syntax inside a text run that starts a line; a fence line only where a line's content starts. */
export const EXTENSION_SPANS: SpanFinder = (text) => [...INLINE(text), ...fenceLines(text, true)];

/**
 * The same in a run that starts after inline syntax (`http://x.org: see`), whose first line is
 * no line's start: readers end such runs at different places, and a `: ` there is punctuation.
 */
export const EXTENSION_SPANS_MID_LINE: SpanFinder = (text) => [
  ...INLINE(text),
  ...fenceLines(text, false),
];

/** Characters without which a text holds none of the syntax above (checked before scanning). */
export function mayHoldExtension(text: string): boolean {
  return text.includes("{") || text.includes("[[") || text.includes(":::") ||
    text.includes("!!!") || text.includes("???") || text.includes("===") || text[0] === ":" ||
    text.includes("*[") || text.includes("<>") || text.includes("</>");
}

/**
 * The marker lines and definition markers of `text`, without their line breaks: on its first
 * line where the run starts a line (`startsLine`) and starts with one, on the others after their
 * prefix.
 * A loop over lines, not a look-behind: that would read back over each run of spaces again.
 */
function fenceLines(text: string, startsLine: boolean): [number, number][] {
  const spans: [number, number][] = [];
  for (let line = startsLine ? 0 : nextLine(text, lineEnd(text, 0)); line < text.length;) {
    const end = lineEnd(text, line);
    let content = line;
    if (line > 0) {
      while (content < end && " \t>".includes(text[content])) content++;
    }
    if (isMarkerLine(text, content, end)) {
      let last = end;
      while (last > content && (text[last - 1] === " " || text[last - 1] === "\t")) last--;
      spans.push([content, last]);
    } else if (text[content] === ":" || text[content] === "*") {
      const line = text.slice(content, end);
      const marker = DEFINITION.exec(line) ?? ABBREVIATION.exec(line);
      if (marker) spans.push([content, content + marker[0].length]);
    }
    line = text[end] === "\r" && text[end + 1] === "\n" ? end + 2 : end + 1;
  }
  return spans;
}

function lineEnd(text: string, from: number): number {
  for (let at = from; at < text.length; at++) {
    if (text[at] === "\n" || text[at] === "\r") return at;
  }
  return text.length;
}

/**
 * The text block [from, to) of `source` without the fence lines that open or close it and the
 * attribute block that ends it (left as written, outside the segment).
 */
export function withoutExtensionEnds(
  source: string,
  from: number,
  to: number,
): [number, number] {
  const text = source.slice(from, to);
  if (!mayHoldExtension(text)) return [from, to];
  let start = 0;
  while (start < text.length && isMarkerLine(text, start)) {
    start = nextLine(text, lineEnd(text, start));
  }
  start += ABBREVIATION.exec(text.slice(start, lineEnd(text, start)))?.[0].length ?? 0;
  let end = text.length;
  for (
    let cut = endingExtension(text, start, end);
    cut >= 0;
    cut = endingExtension(text, start, end)
  ) {
    end = cut;
  }
  return [from + start, from + Math.max(start, end)];
}

/**
 * A marker line's title, the text of its group: a directive's label or the rest of its line
 * before an attribute block (`:::tip[Title]`, `:::tip Title`), an admonition's or tab's quoted
 * title (`!!! note "Title"`, `=== "Tab"`; `""` is none). An admonition with no title gets none:
 * Python-Markdown shows its type's name (`Note`) in any language, and a title added would change
 * a marker line, which is kept byte for byte (so is GitHub's `[!NOTE]`, read in English only).
 */
const MARKER_TITLE = new RegExp(
  [
    String.raw`^:{3,}[\w-]*\[([^\[\]
]+)\]`,
    String.raw`^:{3,}[\w-]*[ 	]+([^{\s][^{
]*?)[ 	]*(?:\{[^
]*)?$`,
    String.raw`^(?:!!!|\?\?\?\+?)[ 	]?[\p{L}\p{N}_-]+(?:[ 	]+[\p{L}\p{N}_-]+)*[ 	]+"([^
]+)"[ 	]*$`,
    String.raw`^===[ 	]+"([^
]+)"[ 	]*$`,
  ].join("|"),
  "du",
);

/**
 * The titles of the marker lines that open the text block [from, to) of `source` (those
 * {@link withoutExtensionEnds} leaves out), as [start, end) offsets: their text is translated.
 */
export function markerTitles(source: string, from: number, to: number): [number, number][] {
  const titles: [number, number][] = [];
  const text = source.slice(from, to);
  if (!mayHoldExtension(text)) return titles;
  for (let start = 0; start < text.length && isMarkerLine(text, start);) {
    const end = lineEnd(text, start);
    const title = MARKER_TITLE.exec(text.slice(start, end));
    const group = title?.indices?.slice(1).find((indices) => indices !== undefined);
    if (group) titles.push([from + start + group[0], from + start + group[1]]);
    start = nextLine(text, end);
  }
  return titles;
}

/** Where the content of the line after the line end at `at` starts (past its prefix). */
function nextLine(text: string, at: number): number {
  let next = text[at] === "\r" && text[at + 1] === "\n" ? at + 2 : at + 1;
  while (next < text.length && " \t>".includes(text[next])) next++;
  return Math.min(next, text.length);
}

/**
 * Where [start, end) of `text` ends without a fence line or an attribute block at its end (and
 * the white space and line break before it), or -1 where it ends with neither.
 */
function endingExtension(text: string, start: number, end: number): number {
  let lineStart = end;
  while (lineStart > start && text[lineStart - 1] !== "\n" && text[lineStart - 1] !== "\r") {
    lineStart--;
  }
  let content = lineStart;
  while (content < end && " \t>".includes(text[content])) content++;
  let cut = -1;
  if (lineStart > start && isMarkerLine(text, content, end)) cut = lineStart;
  else {
    const brace = text.lastIndexOf("{", end - 1);
    const spaced = brace === content || " \t".includes(text[brace - 1]);
    if (brace > start && spaced && ENDING_ATTRIBUTES.test(text.slice(brace, end))) cut = brace;
  }
  if (cut < 0) return -1;
  // Back over the line break (with the line's prefix) and the white space before it: the block
  // ends where its text does.
  if (cut <= content) {
    cut = lineStart;
    while (cut > start && (text[cut - 1] === "\n" || text[cut - 1] === "\r")) cut--;
  }
  while (cut > start && (text[cut - 1] === " " || text[cut - 1] === "\t")) cut--;
  return cut;
}
