/**
 * RSS and Atom feeds under `format: "xml"`. A post's HTML comes two ways: entity-escaped, as most
 * RSS feeds carry it (`<description>&lt;p&gt;Hello &lt;b&gt;world&lt;/b&gt;&lt;/p&gt;</description>`),
 * or in a CDATA section (`<description><![CDATA[<p>Hello</p>]]></description>`). RSS's
 * `description` and `content:encoded` and Atom's text constructs marked `type="html"` are read as
 * HTML either way (a podcast's `itunes:summary` in CDATA only): its sentences and translated
 * attributes (`alt`, `title`) are segments of their own, its tags kept byte for byte (escaped
 * ones as escaped), and translated text is escaped for HTML and then, outside CDATA, for XML
 * (`&amp;lt;`), as a feed reader decodes it twice.
 * A plain-text field (RSS's `title`, Atom's text constructs of `type="text"` or none) in CDATA is
 * text: translated as written, and kept in its CDATA section (the rest of the item comes back
 * byte for byte; there `&` and `<` need no escape), an answer's `]]>` split across two sections;
 * a field mixing CDATA and text is one sentence, each section's delimiters a pair of placeholders.
 * What a feed reader reads as data, not shown as text (dates, `language`, `guid`, Atom's `id`,
 * authors, categories, any module's element: `sy:updatePeriod`), is kept as written: translated,
 * `en-US` and `hourly` came back upper-cased, and a changed `id` is a new post to every reader.
 *
 * Pure: no I/O.
 */
import { HTML_TEXT, type TextRules } from "./html_text_rules.ts";
import type { TextReading } from "./character_references.ts";
import { textReading } from "./character_references.ts";
import { scannedTokens } from "./html_scanner.ts";
import { parse5Tokens } from "./html_tokenizer.ts";
import { isBlank, type Token, token } from "./html_tokens.ts";
import { decodeXML } from "entities/decode";

/**
 * How an element's content, and what is inside it, is read where not as XML: its CDATA and its
 * text, each when given.
 */
export interface Embedded {
  cdata?(source: string, start: number, end: number): Token;
  /** Undefined: this text read as XML. */
  text?(source: string, start: number, end: number): Token | undefined;
  /**
   * Rewrites the tokens of the element's content (`tokens` from `from` on) when it ends holding
   * text of its own and no element.
   */
  ended?(source: string, tokens: Token[], from: number): void;
}

/**
 * What reads an element's content, by its name and start tag (undefined: as XML, each element in
 * it asked in turn).
 */
export type EmbeddedReader = (name: string, startTag: string) => Embedded | undefined;

/** Elements holding a feed's fields, none of their own text: each field inside is read by name. */
const CONTAINERS: ReadonlySet<string> = new Set([
  "rss",
  "rdf:RDF",
  "channel",
  "item",
  "image",
  "textInput",
  "textinput",
  "feed",
  "entry",
  "source",
  "media:group",
  "media:content",
]);

/** RSS's elements whose text is HTML. */
const RSS_HTML: ReadonlySet<string> = new Set(["description", "content:encoded"]);
/**
 * Fields people read: Atom's text constructs, RSS's `title` and `copyright`, and iTunes' and Media
 * RSS's; text by default, HTML when `type="html"`, XML when `type="xhtml"`.
 */
const TEXT_FIELDS: ReadonlySet<string> = new Set([
  "title",
  "subtitle",
  "summary",
  "content",
  "rights",
  "copyright",
  "itunes:title",
  "itunes:subtitle",
  "media:title",
  "media:description",
]);
const TYPE = /\stype\s*=\s*(?:"([^"]*)"|'([^']*)')/;

/**
 * Fields whose CDATA is HTML and text is text: Apple's `itunes:summary` takes `<p>`, `<a>` and
 * lists "if wrapped in CDATA" (read as text, a link's `href` was translated).
 */
const CDATA_HTML: ReadonlySet<string> = new Set(["itunes:summary"]);

/** What a feed's element holds, by its name and start tag (undefined: fields, read by name). */
function feedContent(name: string, startTag: string): keyof FeedReadings | undefined {
  if (CONTAINERS.has(name)) return undefined;
  if (RSS_HTML.has(name)) return "html";
  if (CDATA_HTML.has(name)) return "cdataHtml";
  if (!TEXT_FIELDS.has(name)) return "kept";
  const found = TYPE.exec(startTag);
  const type = found === null ? "text" : (found[1] ?? found[2]).trim();
  return FIELD_TYPES[type] ?? "kept";
}

/** How a feed's fields are read. */
interface FeedReadings {
  html: Embedded;
  cdataHtml: Embedded;
  text: Embedded;
  xml: Embedded;
  kept: Embedded;
}
/** A field's `type` (Media RSS says `plain` for text); any other (`image/png`) is kept. */
const FIELD_TYPES: Readonly<Record<string, keyof FeedReadings>> = {
  text: "text",
  plain: "text",
  html: "html",
  xhtml: "xml",
};

/** Content kept as written, between sentences (a feed's data, a .resx file's headers). */
export const KEPT_CONTENT: Embedded = {
  cdata: (_source, start, end) => token(start, end, "break"),
  text: (_source, start, end) => token(start, end, "break"),
};

/**
 * A feed's readings over XML's text rules (`withoutNotXml` drops what XML cannot hold): the
 * rules to cut it with, and what reads its HTML and plain-text fields.
 */
export function feedReadings(
  xml: TextRules,
  withoutNotXml: (text: string) => string,
): { rules: TextRules; embedded: EmbeddedReader } {
  /** Each level read with rules of its own, by its token. */
  const levels = new WeakMap<Token, TextRules>();
  const asWritten = textReading(
    (reference) => reference,
    (text) => withoutNotXml(text).replaceAll("]]>", "]]]]><![CDATA[>"),
  );
  const cdataText: TextRules = { text: asWritten, attribute: () => asWritten };
  const escapedHtml = escapedHtmlRules(xml);
  const leveled = (made: Token, rules: TextRules) => {
    levels.set(made, rules);
    return made;
  };
  const html: Embedded = {
    cdata: htmlCdata,
    text: (source, start, end) => leveled(escapedHtmlToken(source, start, end), escapedHtml),
  };
  const text: Embedded = {
    cdata: (source, start, end) => {
      const [from, to] = cdataContent(source, start, end);
      const whole = token(start, end, "atom");
      if (isBlank(source, from, to)) return whole;
      return leveled({ ...whole, inner: [token(from, to, "text", false)] }, cdataText);
    },
    ended: inlineCdata,
  };
  const readings: FeedReadings = {
    html,
    cdataHtml: { cdata: htmlCdata },
    text,
    xml: {},
    kept: KEPT_CONTENT,
  };
  const escape = xml.text.escape;
  return {
    rules: {
      ...xml,
      text: {
        ...xml.text,
        // A run between a CDATA section's placeholders ({@link inlineCdata}) is written in it.
        escape: (run, before, after) =>
          before === OPENS || after === ENDS
            ? asWritten.escape(run, before, after)
            : escape(run, before, after),
      },
      level: (read) => levels.get(read),
    },
    embedded: (name, startTag) => {
      const content = feedContent(name, startTag);
      return content === undefined ? undefined : readings[content];
    },
  };
}

/** The rules of HTML written escaped in `outer`'s text (`&lt;b&gt;`): read twice, written so. */
export function escapedHtmlRules(outer: TextRules): TextRules {
  return {
    text: twice(outer.text, HTML_TEXT.text),
    attribute: (quote) => twice(outer.text, htmlAttribute(quote)),
  };
}

/** A reading of text escaped twice: `inner`'s markup written in `outer`'s text. */
function twice(outer: TextReading, inner: TextReading): TextReading {
  return {
    atoms: outer.atoms,
    decode: (written) => inner.decode(outer.decode(written)),
    escape: (text, before, after) => outer.escape(inner.escape(text, before, after)),
    isSpace: outer.isSpace,
  };
}

/**
 * An escaped HTML attribute value's reading, by the character before it in the feed: its quote
 * when written bare, or the `;` of `&quot;`/`&#39;`, where both quotes are escaped.
 */
function htmlAttribute(quote: string): TextReading {
  if (quote === '"' || quote === "'" || /[\s=]/.test(quote)) return HTML_TEXT.attribute(quote);
  const quoted = HTML_TEXT.attribute('"');
  return { ...quoted, escape: (text) => quoted.escape(text).replaceAll("'", "&#39;") };
}

const OPENS = "<![CDATA[";
const ENDS = "]]>";

/** [start, end) of the content of the CDATA section at [start, end) (to the end when unclosed). */
function cdataContent(source: string, start: number, end: number): [number, number] {
  const from = start + OPENS.length;
  const closed = end - from >= ENDS.length && source.startsWith(ENDS, end - ENDS.length);
  return [from, closed ? end - ENDS.length : end];
}

/**
 * A text field mixing text and CDATA (`<title>Hello <![CDATA[big]]> world</title>`): each CDATA
 * section's delimiters become a pair of tags around its content, so the field is one sentence
 * (cut apart, the engine translated `big` alone) and the translation between them is written in
 * the section, as written.
 */
function inlineCdata(source: string, tokens: Token[], from: number): void {
  for (let index = tokens.length - 1; index >= from; index--) {
    const { start, end } = tokens[index];
    if (!source.startsWith(OPENS, start)) continue;
    const [open, close] = cdataContent(source, start, end);
    if (close === end) continue; // unclosed: kept as read
    tokens.splice(
      index,
      1,
      token(start, open, "open", false, String(start)),
      token(open, close, "text", isBlank(source, open, close)),
      token(close, end, "close", false, String(start)),
    );
  }
}

/**
 * The CDATA section at [start, end) of `source` as one atom whose content is cut as HTML (a
 * level of its own, as an HTML embedding element's content is).
 */
export function htmlCdata(source: string, start: number, end: number): Token {
  const [from, to] = cdataContent(source, start, end);
  const content = source.slice(from, to);
  const inner = (scannedTokens(content) ?? parse5Tokens(content)).map((read) =>
    placed(read, (offset) => offset + from)
  );
  return { ...token(start, end, "atom"), inner };
}

/** A reference XML decodes (a DTD's entity is kept as written). */
const REFERENCE = /&(?:#\d+|#x[\da-fA-F]+|[\p{L}_:][\p{L}\p{N}\p{M}_.:\-\u00B7]*);/gu;

/**
 * Entity-escaped HTML text at [start, end) as one atom whose content, XML's references decoded,
 * is cut as HTML; each token is placed back on the escaped source it was read from.
 */
export function escapedHtmlToken(source: string, start: number, end: number): Token {
  let decoded = "";
  const offsets: number[] = [];
  let at = start;
  const read = (text: string, from: number) => {
    decoded += text;
    for (let index = 0; index < text.length; index++) offsets.push(from);
  };
  for (const found of source.slice(start, end).matchAll(REFERENCE)) {
    const reference = start + found.index;
    for (; at < reference; at++) read(source[at], at);
    read(decodeXML(found[0]), reference);
    at = reference + found[0].length;
  }
  for (; at < end; at++) read(source[at], at);
  offsets.push(end);
  const inner = (scannedTokens(decoded) ?? parse5Tokens(decoded)).map((token) =>
    placed(token, (offset) => offsets[offset])
  );
  return { ...token(start, end, "atom"), inner };
}

/** A token read in a level's content, placed in the item (its pairing name is an offset). */
function placed(read: Token, at: (offset: number) => number): Token {
  return {
    ...read,
    start: at(read.start),
    end: at(read.end),
    name: read.name !== undefined && /^\d+$/.test(read.name)
      ? String(at(Number(read.name)))
      : read.name,
    attributes: read.attributes?.map(([start, end]) => [at(start), at(end)]),
    inner: read.inner?.map((inner) => placed(inner, at)),
  };
}
