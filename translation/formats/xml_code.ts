/**
 * Elements of known XML vocabularies whose content is code or data, kept whole as the request's
 * `ignore_tags` would keep them, as HTML never translates its `<pre>`, `<code>`, `<style>` and
 * `<script>`: DocBook's program listings, screens and inline code (`<command>`, `<filename>`:
 * `/etc/tolk.conf` came back upper-cased), SVG's style sheets, scripts and metadata (its
 * `<title>`, `<desc>` and `<text>` are translated). Which items are DocBook or SVG: xml_root.ts.
 *
 * Pure: no I/O.
 */
import type { TagOptions } from "./format.ts";

/** DocBook's code and literal elements (4.x and 5). */
const DOCBOOK: ReadonlySet<string> = new Set([
  "programlisting",
  "screen",
  "synopsis",
  "cmdsynopsis",
  "funcsynopsis",
  "classsynopsis",
  "fieldsynopsis",
  "methodsynopsis",
  "command",
  "filename",
  "literal",
  "code",
  "computeroutput",
  "userinput",
  "option",
  "varname",
  "envar",
  "function",
  "parameter",
  "classname",
  "methodname",
  "constant",
  "returnvalue",
  "prompt",
  "systemitem",
  "uri",
  "email",
  "markup",
  "sgmltag",
  "tag",
  "token",
  "keycode",
]);
/** SVG's elements holding code or machine-read data. */
const SVG: ReadonlySet<string> = new Set(["style", "script", "metadata"]);

const KEPT: Readonly<Record<"docbook" | "svg", ReadonlySet<string>>> = {
  docbook: DOCBOOK,
  svg: SVG,
};

/** The tag options of an item in `vocabulary`: its code kept whole too. */
export function withCodeKept(tags: TagOptions, vocabulary: string | undefined): TagOptions {
  const kept = vocabulary === "docbook" || vocabulary === "svg" ? KEPT[vocabulary] : undefined;
  return kept === undefined ? tags : { ...tags, ignore: new Set([...tags.ignore, ...kept]) };
}
