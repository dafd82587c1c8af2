/**
 * The fast reader of an HTML item's tokens: tags, attributes, comments, doctypes and raw text
 * found with `indexOf` and a few loops over char codes, read as HTML5's tokenizer reads them,
 * for the shapes real pages are made of. Anything else makes it decline (`undefined`) and
 * parse5's tokenizer reads the item (html_tokenizer.ts): a NUL, `<?`, `<!` other than a comment
 * or a doctype (CDATA, bogus comments), `</` not followed by a letter, a tag, comment or
 * doctype the item ends inside, a name with a non-ASCII character, a repeated attribute, an
 * entity in a `translate` or `class` value, `<!--` inside a script.
 *
 * Why: parse5's tokenizer runs its state machine per character and builds a token with a
 * location object per tag, attribute and text run; its tokens and garbage were half the HTML
 * cut, and the cut's share of a request grew about twice as large inside the service as in a
 * loop (colder caches between requests). This reads the corpus pages three times faster (0.63 to 0.21 ms for the 20).
 * tests/translation/formats/html_tokens_test.ts holds it to parse5's tokens on the corpus and on
 * generated markup.
 */
import { type HtmlAttribute, isTranslatedAttribute, NO_ATTRIBUTES } from "./html_attributes.ts";
import { type StartTag, type TextMode, type Token, TokenBuilder } from "./html_tokens.ts";

const TAB = 0x09;
const LINE_FEED = 0x0a;
const FORM_FEED = 0x0c;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const BANG = 0x21;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const DASH = 0x2d;
const SLASH = 0x2f;
const EQUALS = 0x3d;
const GREATER_THAN = 0x3e;
const QUESTION_MARK = 0x3f;

/** Attributes of one tag the scanner reads; parse5 reads a tag with more. */
const MAX_ATTRIBUTES = 64;

/** Thrown inside the scan where parse5 must read the item. */
const DECLINE = new Error("html scanner: declined");

/** HTML5's white space (CR too: the input stream makes it a line feed). */
function isSpace(unit: number): boolean {
  return unit === SPACE || unit === LINE_FEED || unit === TAB || unit === FORM_FEED ||
    unit === CARRIAGE_RETURN;
}

function isAsciiLetter(unit: number): boolean {
  return (unit >= 0x61 && unit <= 0x7a) || (unit >= 0x41 && unit <= 0x5a);
}

/**
 * The cut's tokens of `source`, or undefined where parse5 must read it; `ignored` names
 * elements kept whole (TokenBuilder).
 */
export function scannedTokens(source: string, ignored?: ReadonlySet<string>): Token[] | undefined {
  if (source.includes("\0")) return undefined;
  const builder = new TokenBuilder(source, ignored);
  try {
    new Scanner(source, builder).scan();
  } catch (error) {
    if (error === DECLINE) return undefined;
    throw error;
  }
  return builder.finish();
}

/** One scan of an item; `at` is the position reached. */
class Scanner {
  #at = 0;
  /** Where the text not yet given to the builder starts. */
  #textStart = 0;
  /** The tag being read: the builder reads it before the next one is. */
  readonly #tag: StartTag = {
    name: "",
    attributes: NO_ATTRIBUTES,
    translate: undefined,
    classes: undefined,
    type: undefined,
    selfClosing: false,
    start: 0,
    end: 0,
  };

  constructor(readonly source: string, readonly builder: TokenBuilder) {}

  scan(): void {
    const source = this.source;
    while (true) {
      const open = source.indexOf("<", this.#at);
      if (open === -1) break;
      const next = source.charCodeAt(open + 1);
      if (isAsciiLetter(next)) this.#startTag(open);
      else if (next === SLASH) this.#endTag(open);
      else if (next === BANG) this.#bang(open);
      else if (next === QUESTION_MARK) throw DECLINE;
      else this.#at = open + 1; // a `<` that starts nothing is text
    }
    this.#text(source.length);
  }

  /** Gives the text up to `end` to the builder. */
  #text(end: number): void {
    if (end > this.#textStart) this.builder.text(this.#textStart, end);
  }

  /** Moves past a tag, comment or doctype ending at `end` (exclusive). */
  #past(end: number): void {
    this.#at = end;
    this.#textStart = end;
  }

  #startTag(open: number): void {
    const tag = this.#tag;
    readTag(this.source, open, open + 1, tag);
    this.#text(open);
    this.#past(tag.end);
    const mode = this.builder.startTag(tag);
    if (mode !== undefined) this.#rawText(tag.name, mode);
  }

  #endTag(open: number): void {
    if (!isAsciiLetter(this.source.charCodeAt(open + 2))) throw DECLINE; // `</>`, bogus comment
    const tag = this.#tag;
    readTag(this.source, open, open + 2, tag);
    this.#text(open);
    this.#past(tag.end);
    this.builder.endTag(tag.name, open, tag.end);
  }

  /** `<!--` a comment, `<!DOCTYPE` a doctype; anything else (CDATA, bogus comments) declines. */
  #bang(open: number): void {
    const source = this.source;
    const comment = source.startsWith("--", open + 2);
    let end: number;
    if (comment) end = commentEnd(source, open + 4);
    else if (source.slice(open + 2, open + 9).toLowerCase() === "doctype") {
      end = source.indexOf(">", open + 9) + 1;
      if (end === 0) throw DECLINE;
    } else throw DECLINE;
    this.#text(open);
    this.#past(end);
    this.builder.leaf(comment ? "comment" : "doctype", open, end);
  }

  /**
   * The content of a `script`, `style`, `textarea`... up to its end tag (HTML5's "appropriate
   * end tag": `</name` then white space, `/` or `>`), which is then read as a tag.
   */
  #rawText(name: string, mode: TextMode): void {
    const source = this.source;
    if (mode === "plaintext") {
      this.#at = source.length;
      return;
    }
    let close = this.#at;
    while (true) {
      close = source.indexOf("</", close);
      if (close === -1) {
        this.#at = source.length; // no end tag: the rest is text
        return;
      }
      const after = source.charCodeAt(close + 2 + name.length);
      if (
        source.slice(close + 2, close + 2 + name.length).toLowerCase() === name &&
        (isSpace(after) || after === SLASH || after === GREATER_THAN)
      ) break;
      close += 2;
    }
    // In a script, `<!--` starts HTML5's escaped states, where an end tag may not end it.
    if (mode === "script" && source.slice(this.#at, close).includes("<!--")) throw DECLINE;
    this.#at = close;
    this.#endTag(close);
  }
}

/**
 * The end of a comment whose content starts at `from`: `-->`, `--!>`, or the abrupt `<!-->`
 * and `<!--->`; the item ending first declines.
 */
function commentEnd(source: string, from: number): number {
  if (source.charCodeAt(from) === GREATER_THAN) return from + 1;
  if (source.charCodeAt(from) === DASH && source.charCodeAt(from + 1) === GREATER_THAN) {
    return from + 2;
  }
  for (let at = from;;) {
    const dashes = source.indexOf("--", at);
    if (dashes === -1) throw DECLINE;
    const after = source.charCodeAt(dashes + 2);
    if (after === GREATER_THAN) return dashes + 3;
    if (after === BANG && source.charCodeAt(dashes + 3) === GREATER_THAN) return dashes + 4;
    at = dashes + 1;
  }
}

/**
 * The names of the attributes of the tag being read, reused from tag to tag with a count (an
 * array emptied by `length = 0` gives its room back and grows again at the next push).
 */
const seen: string[] = new Array(MAX_ATTRIBUTES).fill("");

/**
 * A start or end tag whose name starts at `from`, read as HTML5's tag states do into `tag` (an
 * end tag's attributes are read and dropped by the caller). Declines when the item ends inside
 * the tag. Only the attributes the cut translates are kept, and one object serves every tag:
 * the tags' objects and arrays were a fifth of the HTML cut's garbage.
 */
function readTag(source: string, open: number, from: number, tag: StartTag): void {
  let at = from;
  while (at < source.length) {
    const unit = source.charCodeAt(at);
    if (isSpace(unit) || unit === SLASH || unit === GREATER_THAN) break;
    at++;
  }
  tag.name = lowerName(source, from, at);
  tag.attributes = NO_ATTRIBUTES;
  tag.translate = undefined;
  tag.classes = undefined;
  tag.type = undefined;
  tag.start = open;
  let count = 0;
  while (true) {
    // Before an attribute's name.
    let unit = source.charCodeAt(at);
    while (isSpace(unit)) unit = source.charCodeAt(++at);
    if (at >= source.length) throw DECLINE;
    if (unit === GREATER_THAN) {
      tag.selfClosing = false;
      tag.end = at + 1;
      return;
    }
    if (unit === SLASH) {
      if (source.charCodeAt(at + 1) === GREATER_THAN) {
        tag.selfClosing = true;
        tag.end = at + 2;
        return;
      }
      at++; // a `/` not closing the tag is dropped
      continue;
    }
    // The name: its first character may be `=`.
    const nameStart = at++;
    while (at < source.length) {
      unit = source.charCodeAt(at);
      if (isSpace(unit) || unit === SLASH || unit === GREATER_THAN || unit === EQUALS) break;
      at++;
    }
    const attribute = lowerName(source, nameStart, at);
    let end = at;
    let valueStart = at;
    let valueEnd = at;
    while (isSpace(unit)) unit = source.charCodeAt(++at);
    if (at >= source.length) throw DECLINE;
    if (unit === EQUALS) {
      unit = source.charCodeAt(++at);
      while (isSpace(unit)) unit = source.charCodeAt(++at);
      if (unit === DOUBLE_QUOTE || unit === SINGLE_QUOTE) {
        const close = source.indexOf(unit === DOUBLE_QUOTE ? '"' : "'", at + 1);
        if (close === -1) throw DECLINE;
        valueStart = at + 1;
        valueEnd = close;
        at = end = close + 1;
      } else if (unit !== GREATER_THAN) { // `name=>` has an empty value
        valueStart = at;
        while (at < source.length) {
          unit = source.charCodeAt(at);
          if (isSpace(unit) || unit === GREATER_THAN) break;
          at++;
        }
        valueEnd = end = at;
      }
    }
    // A repeated name declines; so does a tag with more attributes than pages have, where
    // looking for repeats one by one would grow with the square of their number.
    if (count === MAX_ATTRIBUTES) throw DECLINE;
    for (let index = 0; index < count; index++) if (seen[index] === attribute) throw DECLINE;
    seen[count++] = attribute;
    if (attribute === "translate") tag.translate = decodedValue(source, valueStart, valueEnd);
    else if (attribute === "class") tag.classes = decodedValue(source, valueStart, valueEnd);
    else if (attribute === "type") tag.type = decodedValue(source, valueStart, valueEnd);
    else if (isTranslatedAttribute(attribute)) {
      const read = { name: attribute, start: nameStart, end };
      if (tag.attributes === NO_ATTRIBUTES) tag.attributes = [read];
      else (tag.attributes as HtmlAttribute[]).push(read);
    }
  }
}

/** A value as parse5 gives it: CR and CRLF read as LF; one with an entity declines. */
function decodedValue(source: string, start: number, end: number): string {
  const value = source.slice(start, end);
  if (value.includes("&")) throw DECLINE;
  return value.includes("\r") ? value.replace(/\r\n?/g, "\n") : value;
}

/** A tag or attribute name in lower case; a non-ASCII character declines. */
function lowerName(source: string, start: number, end: number): string {
  let upper = false;
  for (let at = start; at < end; at++) {
    const unit = source.charCodeAt(at);
    if (unit >= 0x80) throw DECLINE;
    if (unit >= 0x41 && unit <= 0x5a) upper = true;
  }
  const name = source.slice(start, end);
  return upper ? name.toLowerCase() : name;
}
