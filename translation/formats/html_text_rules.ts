/**
 * How HTML and XML read and write text: which references a run or an attribute value holds,
 * and how translated text is escaped for its place (html.ts cuts by these rules; xml.ts,
 * xml_feeds.ts and Markdown's inline HTML bring their own or HTML's).
 */
import { decodeHTML, decodeHTMLAttribute } from "entities/decode";
import { type TextReading, textReading } from "./character_references.ts";
import type { Token } from "./html_tokens.ts";

/**
 * How a dialect reads and writes text: HTML (named references, some without `;`, decoded one
 * way in text and another in attribute values) or XML (five named references and numeric ones;
 * `<` and `&` always escaped).
 */
export interface TextRules {
  /** In text runs. */
  text: TextReading;
  /** In an attribute value, by the quote that opened it (none: unquoted). */
  attribute(quote: string): TextReading;
  /** A token's {@link Token.inner} level's rules when not these (a feed's: xml_feeds.ts). */
  level?(token: Token): TextRules | undefined;
}

const ESCAPED_AMPERSAND = /&(?=[#a-zA-Z])/g;

const escapeReference = (text: string) => text.replace(ESCAPED_AMPERSAND, "&amp;");

const escapeAngles = (text: string) => text.replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/**
 * Translated text in HTML's text: no `<` (the engine reads `&lt;` as `<`, and a raw one opens a
 * tag before a letter, or in a later edit), no `&` that starts a reference, looking past the run
 * into the markup after it too (message mode keeps `copy@example.org` whole: an engine's `&`
 * right before it would read `&copy` as `©`).
 */
function escapeText(text: string, _before?: string, after?: string): string {
  const escaped = escapeReference(text).replaceAll("<", "&lt;");
  if (after === undefined || !escaped.endsWith("&") || !/^[#a-zA-Z]/.test(after)) return escaped;
  return `${escaped.slice(0, -1)}&amp;`;
}

/** HTML's way: translated text must not open a tag or a reference. */
const HTML_READINGS = {
  text: textReading((reference) => decodeHTML(reference), escapeText, { characters: true }),
  // Translated attribute values keep their quoting: the quote, or for unquoted ones any space.
  // `<` and `>` too: inside `noscript`, which a browser running scripts reads as raw text up to
  // `</noscript>`, an engine's `</noscript><img onerror=…>` in an `alt` would be live markup.
  '"': textReading(
    decodeAttribute,
    (text) => escapeAngles(escapeReference(text)).replaceAll('"', "&quot;"),
    { characters: true },
  ),
  "'": textReading(
    decodeAttribute,
    (text) => escapeAngles(escapeReference(text)).replaceAll("'", "&#39;"),
    { characters: true },
  ),
  unquoted: textReading(
    decodeAttribute,
    (text) => escapeReference(text).replace(/[\s"'=<>`]/g, (char) => `&#${char.codePointAt(0)};`),
  ),
};

/**
 * A reference in an attribute value: without its `;` and before `=`, as written (`&copy=1` in
 * a query string is no ©), as HTML5 reads it.
 */
function decodeAttribute(reference: string, next: string | undefined): string {
  return next === "=" && !reference.endsWith(";") ? reference : decodeHTMLAttribute(reference);
}

/** HTML's text rules. */
export const HTML_TEXT: TextRules = {
  text: HTML_READINGS.text,
  attribute: (quote) =>
    quote === '"' || quote === "'" ? HTML_READINGS[quote] : HTML_READINGS.unquoted,
};
