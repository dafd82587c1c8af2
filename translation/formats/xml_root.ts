/**
 * The vocabulary an xml item is written in, read from its first element (past the XML
 * declaration, a doctype, comments and white space): Android's string resources, RSS or Atom
 * feeds, XLIFF files and .resx files are read with rules of their own (android_strings.ts,
 * xml_feeds.ts, xliff.ts, resx.ts), and DocBook and SVG keep their code (xml_code.ts).
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

/** An XLIFF file's root: its major version (1: 1.0 to 1.2, 2: 2.x) and its elements' prefix. */
export interface XliffRoot {
  version: 1 | 2;
  /** What XLIFF's element names start with: `""`, or `xlf:` for `<xlf:xliff xmlns:xlf=…>`. */
  prefix: string;
}

/** A vocabulary with rules of its own. */
export type XmlVocabulary = "android" | "feed" | "resx" | "docbook" | "svg" | XliffRoot;

/** DocBook 4's public identifier in a doctype, or DocBook 5's namespace. */
const DOCBOOK = /<!DOCTYPE[^>[]*DocBook|\sxmlns\s*=\s*["']http:\/\/docbook\.org\/ns\/docbook["']/;

/** What every .resx file's `<root>` holds: the header naming its MIME type. */
const RESX_HEADER = /<resheader\s+name\s*=\s*["']resmimetype["']/;

/** XLIFF's namespaces (`urn:oasis:names:tc:xliff:document:1.2`, `…:2.0`), by major version. */
const XLIFF_NAMESPACE = /^urn:oasis:names:tc:xliff:document:(\d+)\./;

/** The vocabulary of an xml item (undefined: none with rules of its own). */
export function xmlVocabulary(source: string): XmlVocabulary | undefined {
  const first = FIRST_TAG.exec(source);
  if (first === null) return undefined;
  const [, name, attributes] = first;
  if (FEED_ROOTS.has(name)) return "feed";
  // XLIFF is an `xliff` root in XLIFF's namespace under any prefix, or unprefixed in none (many
  // files declare none); its version is its `version` attribute's, else its namespace's, else 1.
  const [, prefix, local] = /^(?:([^:]+):)?(.*)$/.exec(name)!;
  const namespace = declared(attributes, prefix === undefined ? "xmlns" : `xmlns:${prefix}`);
  const major = namespace === undefined ? undefined : XLIFF_NAMESPACE.exec(namespace)?.[1];
  if (local === "xliff" && (major !== undefined || namespace === undefined && !prefix)) {
    const version = declared(attributes, "version")?.split(".")[0] ?? major;
    return { version: version === "2" ? 2 : 1, prefix: prefix === undefined ? "" : `${prefix}:` };
  }
  if (name === "root" && RESX_HEADER.test(source)) return "resx";
  if (DOCBOOK.test(first[0])) return "docbook";
  if (local === "svg") return "svg";
  // `<string id=…>` of another vocabulary is not Android's.
  if (name === "resources" || ANDROID_ELEMENTS.has(name) && /\sname\s*=/.test(attributes)) {
    return "android";
  }
  return undefined;
}

/** An attribute's value in a start tag's attributes, white space trimmed (undefined: none). */
function declared(attributes: string, name: string): string | undefined {
  const escaped = name.replaceAll(".", "\\.");
  const found = new RegExp(`\\s${escaped}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attributes);
  return found === null ? undefined : (found[1] ?? found[2]).trim();
}
