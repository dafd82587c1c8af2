/**
 * The inline half of the own Markdown reader (markdown_scan.ts): one left-to-right pass over a
 * text block's source with char-code comparisons, building micromark's inline token types with
 * source offsets (emphasis, strong, strikethrough, links, images, code, math, autolinks, inline
 * HTML, hard breaks, footnote calls). It follows micromark's rules for the shapes it reads and
 * throws DECLINE on the rest (an address whose bounds micromark sets by finer rules than
 * markdown_scan_address.ts follows, an e-mail address next to an escape, a comment or an HTML
 * tag over two lines, emphasis mixed with strikethrough beyond simple nesting
 * (markdown_scan_emphasis.ts), brackets that part from micromark's pairing), so that marked or
 * micromark reads the document.
 */
import { DECLINE } from "./markdown_marked_lexer.ts";
import type { Syntax } from "./markdown_syntax.ts";
import { classify, labelDefined, normalizeLabel, resourceEnd } from "./markdown_scan_links.ts";
import { emailAddress, literalAutolink } from "./markdown_scan_address.ts";
import { type Delimiter, type Item, resolve } from "./markdown_scan_emphasis.ts";
import { filled, node } from "./markdown_scan_nodes.ts";
import { isInlineMath } from "./markdown_math_dollars.ts";

/** What the inline pass needs from the block pass. */
export interface InlineContext {
  source: string;
  /** Normalised labels of the link reference definitions. */
  definitions: Set<string>;
  /** Normalised labels of the footnote definitions. */
  footnotes: Set<string>;
  /** Whether `$` starts inline math (the document holds a `$`). */
  math: boolean;
  /** Where a bare address may start ({@link addressStarts}). */
  addresses: readonly number[];
}

interface Bracket {
  start: number;
  image: boolean;
  /** Index in the items of the first item inside the brackets. */
  item: number;
  active: boolean;
}

const BACKSLASH = 92;
const NEWLINE = 10;
const SPACE = 32;
const TILDE = 126;
const ASTERISK = 42;
const UNDERSCORE = 95;
const BACKTICK = 96;
const DOLLAR = 36;
const EXCLAMATION = 33;
const LEFT_BRACKET = 91;
const RIGHT_BRACKET = 93;
const LESS_THAN = 60;

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
/** A URI autolink, an e-mail autolink, an opening tag, a closing tag (CommonMark's grammar). */
const AUTOLINK = /<[a-zA-Z][a-zA-Z\d+.-]{1,31}:[^\0- <>]*>/y;
const EMAIL =
  /<[\w.!#$%&'*+/=?^`{|}~-]+@[a-zA-Z\d](?:[a-zA-Z\d-]{0,61}[a-zA-Z\d])?(?:\.[a-zA-Z\d](?:[a-zA-Z\d-]{0,61}[a-zA-Z\d])?)*>/y;
const OPEN_TAG =
  /<[a-zA-Z][a-zA-Z\d-]*(?:[ \t\n]+[a-zA-Z_:][\w.:-]*(?:[ \t\n]*=[ \t\n]*(?:[^ \t\n"'=<>`]+|'[^']*'|"[^"]*"))?)*[ \t\n]*\/?>/y;
const CLOSE_TAG = /<\/[a-zA-Z][a-zA-Z\d-]*[ \t\n]*>/y;
/** What may start inline syntax (bare addresses are found once per document, see below). */
const SPECIAL = /[\n\\`$*_~![\]<@]/g;

/**
 * The inline syntax of [start, end): `lineStarts` are where the content of each line after the
 * first begins (after its container prefix and indentation), in order.
 *
 * @throws DECLINE where this reader does not follow micromark.
 */
export function scanInline(
  context: InlineContext,
  start: number,
  end: number,
  lineStarts: readonly number[],
): Syntax[] {
  const source = context.source;
  const items: Item[] = [];
  const brackets: Bracket[] = [];
  let line = 0;
  /** Start of the current line's content: the character before it is a line bound. */
  let lineStart = start;
  let i = start;
  const before = (at: number) => at === lineStart ? NaN : source.charCodeAt(at - 1);
  const after = (at: number) => at >= end ? NaN : source.charCodeAt(at);
  const addresses = context.addresses;
  let address = 0;
  /** Where each closer of a comment or kin was last found (`closedBy`), once one is looked for. */
  let closersFound: Map<string, number> | undefined;
  /** Where the last bare address ends: the only syntax that may end in a letter or digit. */
  let addressEnd = start;
  while (i < end) {
    // Straight to the next character that may start syntax: most text holds none.
    while (address < addresses.length && addresses[address] < i) address++;
    SPECIAL.lastIndex = i;
    i = SPECIAL.test(source) ? SPECIAL.lastIndex - 1 : end;
    if (address < addresses.length && addresses[address] < i && addresses[address] < end) {
      i = addresses[address++];
      const link = literalAutolink(source, i, end, before(i), brackets.length > 0);
      if (link > 0) {
        items.push(node("literalAutolink", i, link));
        addressEnd = link;
        i = link;
      } else i++;
      continue;
    }
    if (i >= end) break;
    const code = source.charCodeAt(i);
    switch (code) {
      case NEWLINE: {
        let spaces = i;
        while (spaces > lineStart && source.charCodeAt(spaces - 1) === SPACE) spaces--;
        if (i - spaces >= 2) items.push(node("hardBreakTrailing", spaces, i));
        // The next line's content (a code span or math may have crossed line ends before).
        while (line < lineStarts.length && lineStarts[line] <= i) line++;
        if (line >= lineStarts.length) throw DECLINE;
        i = lineStart = lineStarts[line++];
        continue;
      }
      case BACKSLASH: {
        const next = source.charCodeAt(i + 1);
        if (next === NEWLINE && i + 1 < end) {
          items.push(node("hardBreakEscape", i, i + 1));
          i++;
        } else if (i + 1 < end && ASCII_PUNCTUATION.test(source[i + 1])) i += 2;
        else i++;
        continue;
      }
      case BACKTICK:
      case DOLLAR: {
        if (code === DOLLAR && !context.math) break;
        const close = closingRun(source, i, end, code);
        const kept = close.end > 0 && (code === BACKTICK ||
          isInlineMath(source, i, close.end, startsLine(lineStarts, close.end - close.size)));
        if (kept) {
          items.push(node(code === BACKTICK ? "codeText" : "mathText", i, close.end));
          i = close.end;
        } else i = i + close.size;
        continue;
      }
      case ASTERISK:
      case UNDERSCORE:
      case TILDE: {
        let to = i + 1;
        while (source.charCodeAt(to) === code && to < end) to++;
        const size = to - i;
        if (code === TILDE && size > 2) {
          i = to;
          continue;
        }
        const was = before(i);
        const next = after(to);
        const previousClass = classify(was);
        const nextClass = classify(next);
        let open: boolean;
        let close: boolean;
        if (code === TILDE) {
          open = !nextClass || (nextClass === 2 && previousClass !== 0);
          close = !previousClass || (previousClass === 2 && nextClass !== 0);
        } else {
          const opens = !nextClass || (nextClass === 2 && previousClass !== 0) || next === TILDE;
          const closes = !previousClass || (previousClass === 2 && nextClass !== 0) ||
            was === TILDE;
          open = code === ASTERISK ? opens : opens && (previousClass !== 0 || !closes);
          close = code === ASTERISK ? closes : closes && (nextClass !== 0 || !opens);
        }
        if (open || close) {
          const delimiter: Delimiter = {
            type: "delimiter",
            start: i,
            end: to,
            children: [],
            marker: code,
            open,
            close,
          };
          items.push(delimiter);
        }
        i = to;
        continue;
      }
      case EXCLAMATION:
        if (source.charCodeAt(i + 1) === LEFT_BRACKET && i + 1 < end) {
          // `![^1]`: micromark's footnote call may take the brackets back from the image.
          if (source.charCodeAt(i + 2) === 94) throw DECLINE;
          brackets.push({ start: i, image: true, item: items.length, active: true });
          i += 2;
          continue;
        }
        break;
      case LEFT_BRACKET: {
        if (source.charCodeAt(i + 1) === 94) { // `^`: a footnote call
          const close = source.indexOf("]", i + 2);
          const label = close < 0 || close >= end ? "" : source.slice(i + 2, close);
          if (label === "" || /[\s\\[]/.test(label)) throw DECLINE;
          // A label no footnote defines is a bracket as any other (text, or a link's).
          if (context.footnotes.has(normalizeLabel(label))) {
            items.push(node("gfmFootnoteCall", i, close + 1));
            i = close + 1;
            continue;
          }
        }
        brackets.push({ start: i, image: false, item: items.length, active: true });
        i++;
        continue;
      }
      case RIGHT_BRACKET: {
        const bracket = brackets.pop();
        if (!bracket) break;
        const link = bracket.active ? closeLink(context, bracket, items, i, end) : undefined;
        if (!link) break;
        items.length = bracket.item;
        items.push(link);
        // Links do not hold links: the `[` before this one can no longer make one (a `![` still
        // makes an image).
        if (!bracket.image) {
          for (const outer of brackets) if (!outer.image) outer.active = false;
        }
        i = link.end;
        continue;
      }
      case LESS_THAN: {
        const tag = htmlOrAutolink(source, i) ??
          markupDeclaration(source, i, end, closersFound ??= new Map());
        if (tag) {
          if (tag.end > end) throw DECLINE;
          // A tag over lines: read where only indentation stands between its lines (micromark
          // reads it without the containers' prefixes, which the patterns would meet here).
          // (Looked for inside the tag only: `indexOf` would run on past it at every tag.)
          for (let at = i; at < tag.end; at++) {
            if (source.charCodeAt(at) !== NEWLINE) continue;
            while (line < lineStarts.length && lineStarts[line] <= at) line++;
            if (line >= lineStarts.length || !isSpaces(source, at + 1, lineStarts[line])) {
              throw DECLINE;
            }
            lineStart = lineStarts[line++];
          }
          items.push(tag);
          i = tag.end;
          continue;
        }
        break;
      }
      case 64: { // `@`: maybe an e-mail address, which GFM links
        const email = emailAddress(source, i, end, { lineStart, addressEnd }, brackets.length > 0);
        if (!email) break;
        // Its local part is text up to here; a `_` in it is no delimiter.
        while (items.length > 0 && items.at(-1)!.start >= email.start) items.pop();
        items.push(node("literalAutolink", email.start, email.end));
        i = addressEnd = email.end;
        continue;
      }
    }
    i++;
  }
  return filled(resolve(items, false), start, end);
}

/** The end of the code (or math) span opening at `at` (or 0), and its opening run's size. */
function closingRun(source: string, at: number, end: number, marker: number) {
  let size = 0;
  while (source.charCodeAt(at + size) === marker && at + size < end) size++;
  let from = at + size;
  while (from < end) {
    const next = source.indexOf(String.fromCharCode(marker), from);
    if (next < 0 || next >= end) break;
    let run = 0;
    while (source.charCodeAt(next + run) === marker && next + run < end) run++;
    if (run === size) return { end: next + run, size };
    from = next + run;
  }
  return { end: 0, size };
}

/** Whether `at` is where a line's content starts (`lineStarts` are in order). */
function startsLine(lineStarts: readonly number[], at: number): boolean {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (lineStarts[middle] === at) return true;
    if (lineStarts[middle] < at) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** Whether [from, to) holds spaces only. */
function isSpaces(source: string, from: number, to: number): boolean {
  for (let at = from; at < to; at++) if (source.charCodeAt(at) !== SPACE) return false;
  return true;
}

/**
 * A comment, processing instruction, declaration or CDATA section at `at` (a `<`), closed
 * before `end` (the paragraph's end), as micromark's HTML text reads them; undefined where none
 * is (an unclosed one is text to micromark).
 */
function markupDeclaration(
  source: string,
  at: number,
  end: number,
  found: Map<string, number>,
): Syntax | undefined {
  let close = -1;
  if (source.startsWith("<!--", at)) {
    // `<!-->` and `<!--->` are whole comments; otherwise up to the first `-->`.
    if (source.startsWith(">", at + 4)) close = at + 5;
    else if (source.startsWith("->", at + 4)) close = at + 6;
    else close = closedBy(source, "-->", at + 4, end, found);
  } else if (source.startsWith("<![CDATA[", at)) {
    close = closedBy(source, "]]>", at + 9, end, found);
  } else if (source.startsWith("<?", at)) close = closedBy(source, "?>", at + 2, end, found);
  else if (source.startsWith("<!", at) && /[a-zA-Z]/.test(source[at + 2] ?? "")) {
    close = closedBy(source, ">", at + 3, end, found);
  }
  return close > 0 && close <= end ? node("htmlText", at, close) : undefined;
}

/**
 * Where the first `closer` from `from` ends, if it does by `end`; else -1. Looked for from
 * ever later places in a paragraph, so where it was found (or not, -1) last time is kept in
 * `found`: a paragraph of unclosed `<!--` is read in linear time, not the square.
 */
function closedBy(
  source: string,
  closer: string,
  from: number,
  end: number,
  found: Map<string, number>,
): number {
  let at = found.get(closer);
  if (at === undefined || (at >= 0 && at < from)) {
    at = source.indexOf(closer, from);
    found.set(closer, at);
  }
  return at < 0 || at + closer.length > end ? -1 : at + closer.length;
}

function htmlOrAutolink(source: string, at: number): Syntax | undefined {
  for (const [pattern, type] of TAGS) {
    pattern.lastIndex = at;
    if (pattern.test(source)) return node(type, at, pattern.lastIndex);
  }
  return undefined;
}

const TAGS: readonly [RegExp, string][] = [
  [AUTOLINK, "autolink"],
  [EMAIL, "autolink"],
  [OPEN_TAG, "htmlText"],
  [CLOSE_TAG, "htmlText"],
];

/** The link or image closed by the `]` at `at`, or undefined when the brackets are text. */
function closeLink(
  context: InlineContext,
  bracket: Bracket,
  items: Item[],
  at: number,
  end: number,
): Syntax | undefined {
  const source = context.source;
  const opener = bracket.image ? 2 : 1;
  const textStart = bracket.start + opener;
  const next = source.charCodeAt(at + 1);
  let to: number;
  let how: Syntax | undefined;
  if (next === 40 && at + 1 < end) { // `(`
    to = resourceEnd(source, at + 2, end);
    if (to >= 0) how = node("resource", at + 1, to);
    else {
      // No resource: the brackets link as their own reference, or not at all.
      if (!labelDefined(context.definitions, source.slice(textStart, at))) return undefined;
      to = at + 1;
    }
  } else if (next === LEFT_BRACKET && at + 1 < end) {
    const close = source.indexOf("]", at + 2);
    if (close < 0 || close >= end) throw DECLINE;
    const label = source.slice(at + 2, close);
    if (/[\n[\\]/.test(label)) throw DECLINE;
    to = close + 1;
    // A reference to no definition links nothing: both pairs of brackets are text.
    if (label === "") {
      if (!labelDefined(context.definitions, source.slice(textStart, at))) return undefined;
      how = node("reference", at + 1, to);
    } else {
      if (!context.definitions.has(normalizeLabel(label))) return undefined;
      how = node("reference", at + 1, to, [node("referenceString", at + 2, close)]);
    }
  } else {
    if (!labelDefined(context.definitions, source.slice(textStart, at))) return undefined;
    to = at + 1;
  }
  const inner = filled(resolve(items.slice(bracket.item), true), textStart, at);
  const label = node("label", bracket.start, at + 1, [node("labelText", textStart, at, inner)]);
  return node(bracket.image ? "image" : "link", bracket.start, to, how ? [label, how] : [label]);
}
