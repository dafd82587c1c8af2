/**
 * .NET's resource files (`.resx`) under `format: "xml"`: only the string values are text. A
 * file holds its reader's headers (`<resheader>`: a MIME type, assembly names), typed data (a
 * `type` or `mimetype`: an icon's base64, a control's size or position), the designer's own
 * entries (names starting `>>`: a control's name, type and z-order) and comments for
 * translators: read as XML, all of them went to the engine, and a translated header, base64
 * or type name broke the file's loading. Which items are .resx files: xml_root.ts.
 *
 * Pure: no I/O.
 */
import { type EmbeddedReader, KEPT_CONTENT as KEPT } from "./xml_feeds.ts";

/** Elements holding no text to translate: headers, comments, the schema, assemblies. */
const NOT_TEXT: ReadonlySet<string> = new Set([
  "resheader",
  "comment",
  "xsd:schema",
  "assembly",
  "metadata",
]);

/** A `<data>` whose value is not a string: typed, or the designer's (`name=">>…"`). */
const NOT_STRING = /\s(?:type|mimetype)\s*=|\sname\s*=\s*["'](?:>>|&gt;&gt;)/;

/** How a .resx file's elements are read: a string `<data>`'s `<value>` as XML, all else kept. */
export const resxContent: EmbeddedReader = (name, startTag) => {
  if (NOT_TEXT.has(name)) return KEPT;
  return name === "data" && NOT_STRING.test(startTag) ? KEPT : undefined;
};
