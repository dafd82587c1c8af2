/**
 * RSS and Atom feeds under `format: "xml"`: a post's HTML is usually sent in a CDATA section
 * (`<description><![CDATA[<p>Hello</p>]]></description>`), and CDATA is otherwise kept whole,
 * as it holds code (DocBook's `<programlisting>`) and text that is not to be read. In a feed,
 * the CDATA of RSS's `description` and `content:encoded` and of Atom's text constructs marked
 * `type="html"` is read as HTML: its sentences and translated attributes (`alt`, `title`) are
 * segments of their own, its tags kept byte for byte. Translated text is escaped as XML text is
 * (`&amp;`, `&lt;`, `&gt;`: HTML reads them alike, and no `]]>` can end the section early).
 *
 * Pure: no I/O.
 */
import { scannedTokens } from "./html_scanner.ts";
import { parse5Tokens } from "./html_tokenizer.ts";
import { type Token, token } from "./html_tokens.ts";

/** RSS's elements whose text is HTML. */
const RSS_HTML: ReadonlySet<string> = new Set(["description", "content:encoded"]);
/** Atom's text constructs, HTML when `type="html"`. */
const ATOM_TEXT: ReadonlySet<string> = new Set([
  "title",
  "subtitle",
  "summary",
  "content",
  "rights",
]);
const HTML_TYPE = /\stype\s*=\s*(?:"html"|'html')/;

/** Whether a feed's element, by its name and start tag, holds HTML. */
export function holdsHtml(name: string, startTag: string): boolean {
  return RSS_HTML.has(name) || ATOM_TEXT.has(name) && HTML_TYPE.test(startTag);
}

const OPENS = "<![CDATA[";
const ENDS = "]]>";

/**
 * The CDATA section at [start, end) of `source` as one atom whose content is cut as HTML (a
 * level of its own, as an HTML embedding element's content is).
 */
export function htmlCdata(source: string, start: number, end: number): Token {
  const from = start + OPENS.length;
  const to = end - from >= ENDS.length && source.startsWith(ENDS, end - ENDS.length)
    ? end - ENDS.length
    : end;
  const content = source.slice(from, to);
  const inner = (scannedTokens(content) ?? parse5Tokens(content)).map((read) =>
    shifted(read, from)
  );
  return { ...token(start, end, "atom"), inner };
}

/** A token read in a section's content, placed in the item (its pairing name is an offset). */
function shifted(read: Token, by: number): Token {
  return {
    ...read,
    start: read.start + by,
    end: read.end + by,
    name: read.name !== undefined && /^\d+$/.test(read.name)
      ? String(Number(read.name) + by)
      : read.name,
    attributes: read.attributes?.map(([start, end]) => [start + by, end + by]),
    inner: read.inner?.map((inner) => shifted(inner, by)),
  };
}
