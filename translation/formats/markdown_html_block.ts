/**
 * An HTML block inside Markdown, cut by the HTML rules, with what Markdown asks of its lines.
 * Inside a block quote each line after the first starts with the quote's `>`: that prefix is
 * Markdown's, not the HTML's text, so it is kept whole with its line break (as a paragraph's
 * are) instead of going to the engine. An engine's blank line would end the HTML block (the rest
 * read as Markdown), and inside a quote or list item a line without the containers' prefix
 * would leave them: those line breaks are written as HTML reads them alike (one line break, a
 * space).
 *
 * Pure: no I/O.
 */
import type { CutItem } from "./format.ts";
import { cutTokens } from "./html.ts";
import { HTML_TEXT, type TextRules } from "./html_text_rules.ts";
import { scannedTokens } from "./html_scanner.ts";
import { parse5Tokens } from "./html_tokenizer.ts";
import { isBlank, type Token } from "./html_tokens.ts";
import { HTML_IN_MARKDOWN } from "./markdown_values.ts";
import type { SpanFinder } from "./placeholders.ts";

/** A line break with the next line's block quote prefix (and list indentation inside it). */
const QUOTED_LINE_BREAK = /[ \t]*(?:\r\n?|\n)[ \t]*>[ \t>]*/g;

/** HTML's text rules, an engine's translation written back by `written` first. */
function htmlRules(written: (text: string) => string): TextRules {
  const escape = HTML_TEXT.text.escape;
  return {
    text: { ...HTML_TEXT.text, escape: (text) => escape(written(text)) },
    attribute: HTML_IN_MARKDOWN.attribute,
  };
}
/**
 * At the top level an engine's blank lines are one line break: a blank line ends the block.
 * `\r(?!\n)`: a CRLF is one line break, never a CR and an LF read as two.
 */
const TOP_LEVEL_RULES = htmlRules((text) =>
  text.replace(/[ \t]*(\r\n|\r(?!\n)|\n)(?:[ \t]*(?:\r\n|\r(?!\n)|\n))+[ \t]*/g, "$1")
);
/** Inside a quote or list item a line needs its prefix: an engine's line break is a space. */
const CONTAINED_RULES = htmlRules((text) => text.replace(/[ \t]*[\r\n][ \t\r\n]*/g, " "));

/**
 * Cuts the HTML block at [start, end) of the Markdown `source`; `find` as for its text. Its tags
 * are read from `read`, a copy of the same length (an MDX item's, JSX tags masked:
 * markdown_mdx_source.ts), its bytes taken from `source`.
 */
export function cutHtmlBlock(
  source: string,
  [start, end]: [number, number],
  { find, read = source }: { find?: SpanFinder; read?: string } = {},
): CutItem {
  const html = source.slice(start, end);
  const readHtml = read === source ? html : read.slice(start, end);
  const tokens = scannedTokens(readHtml) ?? parse5Tokens(readHtml);
  let lineStart = start;
  while (lineStart > 0 && source[lineStart - 1] !== "\n" && source[lineStart - 1] !== "\r") {
    lineStart--;
  }
  const prefix = source.slice(lineStart, start);
  const rules = prefix === "" ? TOP_LEVEL_RULES : CONTAINED_RULES;
  const quoted = prefix.includes(">");
  return cutTokens(html, quoted ? quotePrefixesKept(html, tokens) : tokens, rules, find);
}

/**
 * The tokens with each text's line breaks and the quote prefixes after them as atoms: kept whole
 * inside a sentence, left out at its ends (html.ts); inside embedding elements' content too.
 */
function quotePrefixesKept(html: string, tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  for (const token of tokens) {
    if (token.inner) {
      out.push({ ...token, inner: quotePrefixesKept(html, token.inner) });
      continue;
    }
    if (token.kind !== "text") {
      out.push(token);
      continue;
    }
    let at = token.start;
    for (const found of html.slice(token.start, token.end).matchAll(QUOTED_LINE_BREAK)) {
      const from = token.start + found.index;
      if (from > at) out.push(text(html, at, from));
      out.push({ ...token, start: from, end: from + found[0].length, kind: "atom" });
      at = from + found[0].length;
    }
    if (at < token.end) out.push(text(html, at, token.end));
  }
  return out;
}

function text(html: string, start: number, end: number): Token {
  const blank = isBlank(html, start, end);
  return {
    start,
    end,
    kind: "text",
    name: undefined,
    attributes: undefined,
    blank,
    inner: undefined,
  };
}
