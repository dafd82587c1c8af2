/**
 * The vocabulary an xml item is written in, read from its first element (past the XML
 * declaration, a doctype, comments and white space): Android's string resources, RSS or Atom
 * feeds and XLIFF files are read with rules of their own (android_strings.ts, xml_feeds.ts,
 * xliff.ts).
 *
 * Pure: no I/O.
 */

/** The first start tag of an item, and its name. */
const FIRST_TAG =
  /^\uFEFF?(?:\s|<\?[^]*?\?>|<!--[^]*?-->|<!DOCTYPE[^[>]*(?:\[[^]*?\])?\s*>)*<([^\s/>!?]+)([^<>]*)>/;

/** An element that makes a feed: RSS 2.0's `rss`, RSS 1.0's `rdf:RDF`, Atom's `feed`. */
const FEED_ROOTS: ReadonlySet<string> = new Set(["rss", "rdf:RDF", "feed"]);
/** What Android resources hold; one of them sent alone has a `name`. */
const ANDROID_ELEMENTS: ReadonlySet<string> = new Set(["string", "plurals", "string-array"]);

/** A vocabulary with rules of its own: XLIFF by its version (1.x or 2.x). */
export type XmlVocabulary = "android" | "feed" | "xliff-1" | "xliff-2";

/**
 * An XLIFF root's major version: its `version` attribute, or else its namespace
 * (`urn:oasis:names:tc:xliff:document:2.0`); 1.2 when neither says.
 */
const XLIFF_2 = /\sversion\s*=\s*["']\s*2|\sxmlns\s*=\s*["'][^"']*:document:2\./;

/** The vocabulary of an xml item (undefined: none with rules of its own). */
export function xmlVocabulary(source: string): XmlVocabulary | undefined {
  const first = FIRST_TAG.exec(source);
  if (first === null) return undefined;
  const [, name, attributes] = first;
  if (FEED_ROOTS.has(name)) return "feed";
  if (name === "xliff") return XLIFF_2.test(attributes) ? "xliff-2" : "xliff-1";
  // `<string id=…>` of another vocabulary is not Android's.
  if (name === "resources" || ANDROID_ELEMENTS.has(name) && /\sname\s*=/.test(attributes)) {
    return "android";
  }
  return undefined;
}
