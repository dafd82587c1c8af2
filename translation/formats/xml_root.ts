/**
 * The vocabulary an xml item is written in, read from its first element (past the XML
 * declaration, a doctype, comments and white space): Android's string resources and RSS or
 * Atom feeds are read with rules of their own (android_strings.ts, xml_feeds.ts).
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

/** The vocabulary of an xml item (undefined: none with rules of its own). */
export function xmlVocabulary(source: string): "android" | "feed" | undefined {
  const first = FIRST_TAG.exec(source);
  if (first === null) return undefined;
  const [, name, attributes] = first;
  if (FEED_ROOTS.has(name)) return "feed";
  // `<string id=…>` of another vocabulary is not Android's.
  if (name === "resources" || ANDROID_ELEMENTS.has(name) && /\sname\s*=/.test(attributes)) {
    return "android";
  }
  return undefined;
}
