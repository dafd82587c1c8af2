/**
 * marked's lexer as markdown_marked.ts uses it: GFM, plus the constructs marked lacks, with
 * micromark's rules (micromark-extension-math, -frontmatter, -gfm-footnote): front matter, math
 * blocks, inline math, footnote definitions and calls, and the mask that keeps `*` and `_`
 * inside inline math from being read as emphasis.
 */
import {
  Lexer,
  Marked,
  type Token,
  type TokenizerExtension,
  type TokenizerThis,
  type TokensList,
} from "marked";
import { isInlineMath } from "./markdown_math_dollars.ts";

/**
 * The length of the math block (`$$` fence of two or more, a meta without `$`, up to a closing
 * fence at least as long, or to the end) at the start of `src`, or 0.
 */
function mathFlowLength(src: string): number {
  const open = /^ {0,3}(\${2,})[^\n$]*(?:\n|$)/.exec(src);
  if (!open) return 0;
  const size = open[1].length;
  let at = open[0].length;
  while (at < src.length) {
    const lineEnd = src.indexOf("\n", at);
    const end = lineEnd < 0 ? src.length : lineEnd;
    const close = /^ {0,3}(\$+)[ \t]*$/.exec(src.slice(at, end));
    if (close && close[1].length >= size) return end;
    at = end + 1;
  }
  return src.length;
}

/**
 * The length of the inline math at `at` in `src` (a run of `$`, up to the next run of the same
 * length, like a code span, where Pandoc's rule takes it for math: markdown_math_dollars.ts),
 * or 0.
 */
function mathTextLength(src: string, at: number): number {
  let size = 0;
  while (src.charCodeAt(at + size) === 36) size++;
  if (size === 0) return 0;
  let i = at + size;
  while (i < src.length) {
    const next = src.indexOf("$", i);
    if (next < 0) return 0;
    let run = 0;
    while (src.charCodeAt(next + run) === 36) run++;
    if (run === size) return isInlineMath(src, at, next + run) ? next + run - at : 0;
    i = next + run;
  }
  return 0;
}

/**
 * marked's hook before it looks for emphasis: the inside of inline math (outside code spans and
 * escapes) becomes `+`, so a `*` in `$a*b$` pairs with nothing, as in micromark.
 */
function maskMath(src: string): string {
  if (!src.includes("$")) return src;
  let out = "";
  let done = 0;
  for (let i = 0; i < src.length; i++) {
    const code = src.charCodeAt(i);
    if (code === 92) i++;
    else if (code === 96) {
      let size = 0;
      while (src.charCodeAt(i + size) === 96) size++;
      const close = src.indexOf("`".repeat(size), i + size);
      i = close < 0 ? i + size - 1 : close + size - 1;
    } else if (code === 36) {
      const length = mathTextLength(src, i);
      let size = 0;
      while (src.charCodeAt(i + size) === 36) size++;
      if (length) {
        out += src.slice(done, i + size) + "+".repeat(length - 2 * size);
        done = i + length - size;
        i = done + size - 1;
      } else i += size - 1;
    }
  }
  return out + src.slice(done);
}

/** Thrown when marked's tokens cannot be placed in the source: micromark reads it instead. */
export const DECLINE = new Error("marked: declined");

/** Footnote labels defined in the document being read (calls to others are plain text). */
const footnotes = new Set<string>();

/** A math block (`$$` fences). */
const MATH_FLOW: TokenizerExtension = {
  name: "mathFlow",
  level: "block",
  start: (src: string) => {
    const at = src.search(/\n {0,3}\$\$/);
    return at < 0 ? undefined : at + 1;
  },
  tokenizer(src: string) {
    const length = mathFlowLength(src);
    return length ? { type: "mathFlow", raw: src.slice(0, length) } : undefined;
  },
};

/** A footnote definition (`[^x]: ...`, one line). */
const FOOTNOTE_DEFINITION: TokenizerExtension = {
  name: "footnoteDefinition",
  level: "block",
  start: (src: string) => {
    const at = src.search(/\n {0,3}\[\^/);
    return at < 0 ? undefined : at + 1;
  },
  tokenizer(this: TokenizerThis, src: string) {
    const head = /^ {0,3}\[\^([^\]\\\s]+)\]:[ \t]*/.exec(src);
    if (!head) return undefined;
    // Only the one-line shape: continuation lines (indented or lazy) end where micromark's
    // container rules say, which marked has no notion of.
    const end = src.indexOf("\n");
    const line = end < 0 ? src : src.slice(0, end);
    const next = end < 0 ? "" : src.slice(end + 1);
    if (next !== "" && !/^[ \t]*(?:\n|$)|^ {0,3}\[\^[^\]\\\s]+\]:/.test(next)) throw DECLINE;
    if (/^(?:[ \t]*\n)*(?: {4}| {0,3}\t)/.test(next)) throw DECLINE;
    footnotes.add(normalizeLabel(head[1]));
    const content = line.slice(head[0].length);
    return {
      type: "footnoteDefinition",
      raw: line,
      label: head[0],
      tokens: this.lexer.blockTokens(content, []),
    };
  },
};

/** Inline math (`$...$`). */
const MATH_TEXT: TokenizerExtension = {
  name: "mathText",
  level: "inline",
  start: (src: string) => {
    const at = src.indexOf("$");
    return at < 0 ? undefined : at;
  },
  tokenizer(src: string) {
    const length = mathTextLength(src, 0);
    return length ? { type: "mathText", raw: src.slice(0, length) } : undefined;
  },
};

/** A call of a defined footnote (`[^x]`). */
const FOOTNOTE_CALL: TokenizerExtension = {
  name: "footnoteCall",
  level: "inline",
  start: (src: string) => {
    const at = src.indexOf("[^");
    return at < 0 ? undefined : at;
  },
  tokenizer(src: string) {
    const call = /^\[\^([^\]\\\s]+)\]/.exec(src);
    if (!call || !footnotes.has(normalizeLabel(call[1]))) return undefined;
    return { type: "footnoteCall", raw: call[0] };
  },
};

/**
 * marked with the constructs a body needs: each extension's `start` and tokenizer run at every
 * block and inline position, so a body without `$` is read without the math ones and one
 * without `[^` without the footnote ones (those would all decline there; the lexer only removes
 * characters at line starts and CR, and unescapes `\|` and `\[`: none of that makes a `$`
 * or a `[^` the body does not hold already).
 */
const MARKED = new Marked({ gfm: true });
MARKED.use({
  hooks: { emStrongMask: maskMath },
  extensions: [MATH_FLOW, FOOTNOTE_DEFINITION, MATH_TEXT, FOOTNOTE_CALL],
});
const MATH_MARKED = new Marked({ gfm: true });
MATH_MARKED.use({ hooks: { emStrongMask: maskMath }, extensions: [MATH_FLOW, MATH_TEXT] });
const FOOTNOTE_MARKED = new Marked({ gfm: true });
FOOTNOTE_MARKED.use({ extensions: [FOOTNOTE_DEFINITION, FOOTNOTE_CALL] });

function normalizeLabel(label: string): string {
  return label.toLowerCase().toUpperCase();
}

/** marked without extensions, for a body with neither. */
const PLAIN_MARKED = new Marked({ gfm: true });

/**
 * marked's tokens for a Markdown body (front matter cut off). Throws DECLINE where marked
 * cannot match micromark (a footnote with continuation lines).
 */
export function lexMarkdown(body: string): TokensList {
  const math = body.includes("$");
  const footnoteMarks = body.includes("[^");
  if (!math && !footnoteMarks) return lexPlain(body);
  footnotes.clear();
  return (math ? footnoteMarks ? MARKED : MATH_MARKED : FOOTNOTE_MARKED).lexer(body);
}

/**
 * Inline content with none of what starts inline syntax in GFM (escapes, tags, links, code,
 * emphasis, strikethrough, e-mails, entities), no autolink and no hard break (`  ` before a
 * line end): marked would read it as one text token. A `!` not before a `[` only splits the
 * text, and marked joins the pieces again.
 */
const NO_INLINE_SYNTAX = /^[^\\<[`*~_@&]*$/;
const AUTOLINK = /(?:https?|ftp):\/\/|mailto:|xmpp:|www\./i;

/**
 * What `PLAIN_MARKED.lexer` gives, with the inline content that has no inline syntax (half the
 * paragraphs, headings and cells of the corpus) made one text token directly: marked tries
 * each of its inline rules at every such run before its text rule takes it.
 * tests/translation/formats/markdown_readers_test.ts compares both on generated documents.
 */
export function lexPlain(body: string): TokensList {
  // A copy, as marked makes per call: the lexer sets its tokenizer on the options it is given.
  const lexer = new Lexer({ ...PLAIN_MARKED.defaults });
  lexer.blockTokens(body.replace(/\r\n|\r/g, "\n"), lexer.tokens);
  for (const { src, tokens } of lexer.inlineQueue) {
    lexer.state.inRawBlock = false;
    if (NO_INLINE_SYNTAX.test(src) && !AUTOLINK.test(src) && !src.includes("  \n")) {
      if (src !== "") tokens.push(textToken(src));
    } else lexer.inlineTokens(src, tokens);
  }
  lexer.inlineQueue = [];
  return lexer.tokens;
}

function textToken(text: string): Token {
  return { type: "text", raw: text, text, escaped: false };
}
