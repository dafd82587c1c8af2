/**
 * What one line of Markdown starts, by CommonMark's and GFM's rules as micromark applies them:
 * the pure helpers of the own scanner's block pass (markdown_scan.ts). Patterns are sticky and
 * read from a line's start inside the whole document, so `(?=\\n|$)` is a line's end.
 */
import { DECLINE } from "./markdown_marked_lexer.ts";

/** How an HTML block ends: at a line holding `</script>` (and kin), `-->`, or a blank line. */
export type HtmlBlockKind = "raw" | "comment" | "blank";

/** What a line holds where a block may start. */
export type BlockStart =
  | "blank"
  | "heading"
  | "fence"
  | "break"
  | "quote"
  | "item"
  | "item-lazy"
  | "html"
  | "other";

/** A space's char code (the scanner declines documents with tabs). */
export const SPACE = 32;
const HTML_BLOCK_NAMES = new Set(
  ("address article aside base basefont blockquote body caption center col colgroup dd " +
    "details dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 " +
    "h3 h4 h5 h6 head header hr html iframe legend li link main menu menuitem nav noframes ol " +
    "optgroup option p param search section summary table tbody td tfoot th thead title tr " +
    "track ul").split(" "),
);
const HTML_RAW = /<(?:script|pre|style|textarea)(?=[ >\n]|$)/iy;
const HTML_BLOCK_TAG = /<\/?([a-zA-Z][a-zA-Z\d]*)(?=[ >\n]|\/>|$)/y;
const HTML_COMPLETE_TAG =
  /(?:<[a-zA-Z][a-zA-Z\d-]*(?: +[a-zA-Z_:][\w.:-]*(?: *= *(?:[^ "'=<>`]+|'[^'\n]*'|"[^"\n]*"))?)* *\/?>|<\/[a-zA-Z][a-zA-Z\d-]* *>) *(?=\n|$)/y;
const THEMATIC_BREAK = /(?:(?:\* *){3,}|(?:- *){3,}|(?:_ *){3,})(?=\n|$)/y;
const SETEXT_UNDERLINE = /(?:=+|-+) *(?=\n|$)/y;
/** A link reference definition's label and colon; group 1 is the label. */
const DEFINITION_LABEL = String.raw`\[((?:[^\\[\]\n]|\\.){1,999})\]:`;
/**
 * A definition's destination and title, to the line's end. A bare destination with an unescaped
 * parenthesis is left out (micromark takes it only with the parentheses balanced).
 */
const DEFINITION_REST = String.raw`(?:<[^<>\n]*>|(?:[^\s<()\\]|\\\S)(?:[^\s()\\]|\\\S)*)` +
  String.raw`(?: +(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))? *(?:\n|$)`;
/** A link reference definition on one line; group 1 is its label. */
export const DEFINITION = new RegExp(` {0,3}${DEFINITION_LABEL} *${DEFINITION_REST}`, "y");
/** A definition's label alone on its line (its destination on the next). */
export const DEFINITION_LABEL_LINE = new RegExp(` {0,3}${DEFINITION_LABEL} *(?=\n)`, "y");
/** The line after {@link DEFINITION_LABEL_LINE}: the destination and title, indented or not. */
export const DEFINITION_REST_LINE = new RegExp(` *${DEFINITION_REST}`, "y");
/** A footnote definition's `[^label]: `; group 1 is its label. */
export const FOOTNOTE_DEFINITION = / {0,3}\[\^([^\]\\\s]+)\]: */y;

/**
 * Checks the first line of a footnote definition's content, from `content` (past its
 * `[^label]:` and the spaces after it; nothing there when it starts on the next line): declines
 * content that starts a block of its own (HTML, a heading, a list...) or a link.
 */
export function checkFootnoteStart(source: string, content: number, lineEnd: number): void {
  if (content === lineEnd) return;
  if (blockStart(source, content, lineEnd, false) !== "other" || /[<[|]/.test(source[content])) {
    throw DECLINE;
  }
}

/** Whether a footnote definition starts at `lineStart` (up to three spaces before it). */
export function footnoteDefinitionAhead(source: string, lineStart: number): boolean {
  if (source.charCodeAt(lineStart + spaces(source, lineStart, lineStart + 4)) !== 91) return false;
  FOOTNOTE_DEFINITION.lastIndex = lineStart;
  return FOOTNOTE_DEFINITION.test(source);
}

/** How many spaces there are from `at` (before `end`). */
export function spaces(source: string, at: number, end: number): number {
  let count = 0;
  while (at + count < end && source.charCodeAt(at + count) === SPACE) count++;
  return count;
}

/** Whether [at, end) is spaces only. */
export function isBlank(source: string, at: number, end: number): boolean {
  return at + spaces(source, at, end) >= end;
}

/** `end` moved back over trailing spaces, not before `start`. */
export function trimEnd(source: string, start: number, end: number): number {
  while (end > start && source.charCodeAt(end - 1) === SPACE) end--;
  return end;
}

/** The length of a list marker with the space after it at `at`, or 0. */
export function listMarker(source: string, at: number, lineEnd: number): number {
  const code = source.charCodeAt(at);
  let length = 0;
  if (code === 42 || code === 43 || code === 45) length = 1;
  else {
    while (
      length < 10 && source.charCodeAt(at + length) >= 48 && source.charCodeAt(at + length) <= 57
    ) {
      length++;
    }
    if (length === 0 || length > 9) return 0;
    const after = source.charCodeAt(at + length);
    if (after !== 46 && after !== 41) return 0;
    length++;
  }
  return at + length === lineEnd || source.charCodeAt(at + length) === SPACE ? length : 0;
}

/** A code fence (three backticks or tildes) or a math fence (two dollars) at `at`. */
export function fenceAt(source: string, at: number, lineEnd: number) {
  const marker = source.charCodeAt(at);
  if (marker !== 96 && marker !== 126 && marker !== 36) return undefined;
  let size = 0;
  while (source.charCodeAt(at + size) === marker) size++;
  if (size < (marker === 36 ? 2 : 3)) return undefined;
  const info = source.slice(at + size, lineEnd);
  if (marker !== 126 && info.includes(String.fromCharCode(marker))) return undefined;
  return { marker, size };
}

/** Whether a thematic break (`***`, `- - -`, `___`) is the line from `at`. */
export function isThematicBreak(source: string, at: number, lineEnd: number): boolean {
  const code = source.charCodeAt(at);
  if (code !== 42 && code !== 45 && code !== 95) return false;
  THEMATIC_BREAK.lastIndex = at;
  return THEMATIC_BREAK.test(source) && THEMATIC_BREAK.lastIndex === lineEnd;
}

/** Whether the line from `at` is a setext underline (`===` or `---`, indented 3 at most). */
export function isSetextUnderline(source: string, at: number, lineEnd: number): boolean {
  const indent = spaces(source, at, lineEnd);
  if (indent > 3) return false;
  SETEXT_UNDERLINE.lastIndex = at + indent;
  return SETEXT_UNDERLINE.test(source) && SETEXT_UNDERLINE.lastIndex === lineEnd;
}

/**
 * The HTML block starting at `at` (kinds 1, 2, 6 and 7 of CommonMark), or undefined; kind 7 (a
 * lone complete tag) cannot interrupt a paragraph. Declines on kinds 3 to 5 (`<?`, `<!X`,
 * CDATA).
 */
export function htmlBlockKind(
  source: string,
  at: number,
  lineEnd: number,
  interrupting: boolean,
): HtmlBlockKind | undefined {
  HTML_RAW.lastIndex = at;
  if (HTML_RAW.test(source)) return "raw";
  if (source.startsWith("<!--", at)) return "comment";
  if (source.startsWith("<?", at) || source.startsWith("<!", at)) throw DECLINE;
  HTML_BLOCK_TAG.lastIndex = at;
  const tag = HTML_BLOCK_TAG.exec(source);
  if (tag && HTML_BLOCK_NAMES.has(tag[1].toLowerCase())) return "blank";
  if (interrupting) return undefined;
  HTML_COMPLETE_TAG.lastIndex = at;
  const complete = HTML_COMPLETE_TAG.test(source) && HTML_COMPLETE_TAG.lastIndex === lineEnd;
  return complete ? "blank" : undefined;
}

/** Whether an HTML block of `kind` ends with `line` (a blank line ends the others, unread). */
export function htmlBlockEnds(kind: HtmlBlockKind, line: string): boolean {
  if (kind === "blank") return false;
  if (kind === "comment") return line.includes("-->");
  return /<\/(?:script|pre|style|textarea)>/i.test(line);
}

/**
 * What starts at `at`: `item-lazy` is a list item that cannot interrupt the paragraph open
 * (`inParagraph`): empty, or numbered other than 1. Declines on a math fence or a footnote
 * definition under a paragraph.
 */
export function blockStart(
  source: string,
  at: number,
  lineEnd: number,
  inParagraph: boolean,
): BlockStart {
  const indent = spaces(source, at, lineEnd);
  const content = at + indent;
  if (content === lineEnd) return "blank";
  if (indent >= 4) return "other";
  const code = source.charCodeAt(content);
  if (code === 62) return "quote";
  if (code === 35 && /^#{1,6}(?=[ \n]|$)/.test(source.slice(content, content + 8))) {
    return "heading";
  }
  const fence = fenceAt(source, content, lineEnd);
  if (fence) return "fence";
  if (isThematicBreak(source, content, lineEnd)) return "break";
  const marker = listMarker(source, content, lineEnd);
  if (marker > 0) {
    return inParagraph && !mayInterrupt(source, content, marker, lineEnd) ? "item-lazy" : "item";
  }
  if (code === 60 && htmlBlockKind(source, content, lineEnd, true)) return "html";
  if (inParagraph && code === 91 && source.startsWith("[^", content)) throw DECLINE;
  return "other";
}

/**
 * Whether the list item whose marker (`marker` long) starts at `content` may interrupt a
 * paragraph: a bullet or micromark's `1.` / `1)` (not `01.`), with content.
 */
export function mayInterrupt(
  source: string,
  content: number,
  marker: number,
  lineEnd: number,
): boolean {
  const code = source.charCodeAt(content);
  const ordered = code >= 48 && code <= 57;
  if (ordered && (code !== 49 || marker !== 2)) return false;
  return !isBlank(source, content + marker, lineEnd);
}

/** Whether the line from `at` closes a fence of `marker` opened with `size` of them. */
export function closesFence(
  source: string,
  at: number,
  lineEnd: number,
  fence: { marker: number; size: number },
): boolean {
  const indent = spaces(source, at, lineEnd);
  if (indent > 3) return false;
  let size = 0;
  while (source.charCodeAt(at + indent + size) === fence.marker) size++;
  return size >= fence.size && isBlank(source, at + indent + size, lineEnd);
}

/** Whether an HTML block of any kind (7 too, as where no paragraph is open) starts at `at`. */
export function htmlBlockAhead(source: string, at: number, lineEnd: number): boolean {
  const indent = spaces(source, at, lineEnd);
  const content = at + indent;
  return indent < 4 && source.charCodeAt(content) === 60 &&
    htmlBlockKind(source, content, lineEnd, false) !== undefined;
}

/**
 * The text of the ATX heading whose `#`s start at `at` (without its closing sequence: `#`s after
 * a space, or alone, then spaces), or undefined when the line is no heading (seven `#`s, or no
 * space after them).
 */
export function atxHeadingText(
  source: string,
  at: number,
  lineEnd: number,
): { start: number; end: number } | undefined {
  let level = 0;
  while (source.charCodeAt(at + level) === 35) level++;
  if (level > 6 || (at + level < lineEnd && source.charCodeAt(at + level) !== SPACE)) {
    return undefined;
  }
  let start = at + level;
  while (source.charCodeAt(start) === SPACE && start < lineEnd) start++;
  let end = trimEnd(source, start, lineEnd);
  let hashes = end;
  while (hashes > start && source.charCodeAt(hashes - 1) === 35) hashes--;
  if (hashes < end && (hashes === start || source.charCodeAt(hashes - 1) === SPACE)) {
    end = trimEnd(source, start, hashes);
  }
  return { start, end };
}
