/**
 * Android's string resources (`res/values/strings.xml`) under `format: "xml"`. aapt reads a
 * string's text after XML does, with escapes of its own: `\'`, `\"`, `\\`, `\@`, `\?`, `\n`,
 * `\t`, `\uXXXX`; an unescaped `"` quotes (it is not shown), and an unescaped `'` outside quotes
 * fails the build. Sent as written, the engine read `It\'s` and wrote its own apostrophes bare
 * (French `l'` broke the build); here the engine reads the characters aapt shows, unescaped
 * quotes and escaped line breaks stay in place as placeholders, and a changed answer is written
 * back escaped for aapt.
 * `<xliff:g>` (what Android marks as not to translate: `<xliff:g id="name">Bob</xliff:g>`) is
 * kept whole. Interpolation variables (`%1$s`, `%d`) are placeholders as in any xml item. Which
 * items are Android's: xml_root.ts.
 *
 * Pure: no I/O.
 */
import type { TagOptions } from "./format.ts";
import type { TextRules } from "./html_text_rules.ts";
import type { SpanFinder } from "./placeholders.ts";
import { bothSpans } from "./variable_spans.ts";
import {
  type Embedded,
  type EmbeddedReader,
  escapedHtmlRules,
  escapedHtmlToken,
  htmlCdata,
} from "./xml_feeds.ts";
import type { Token } from "./html_tokens.ts";

/** Text holding a tag written escaped (`&lt;b>`): HTML for `Html.fromHtml`. */
const ESCAPED_TAG = /&lt;\/?[A-Za-z]/;

/**
 * An Android item's rules (XML's with aapt's escapes, {@link androidRules}) and how its strings'
 * content is read where not as XML: the CDATA of a `<string>`, or of an `<item>` of a
 * `<plurals>` or `<string-array>`, and its text holding escaped tags (`&lt;b>`, Android's own
 * example) are HTML to translate, as apps pass such text to `Html.fromHtml`; CDATA keeps its tags
 * from XML, escaped tags are written back escaped, and aapt still reads the escapes of both.
 */
export function androidReadings(xml: TextRules): { rules: TextRules; embedded: EmbeddedReader } {
  const rules = androidRules(xml);
  const html = escapedHtmlRules(rules);
  /** The escaped HTML levels, read with `html`. */
  const levels = new WeakSet<Token>();
  const string: Embedded = {
    cdata: htmlCdata,
    text: (source, start, end) => {
      if (!ESCAPED_TAG.test(source.slice(start, end))) return undefined;
      const made = escapedHtmlToken(source, start, end);
      levels.add(made);
      return made;
    },
  };
  return {
    rules: { ...rules, level: (read) => levels.has(read) ? html : undefined },
    embedded: (name) => name === "string" || name === "item" ? string : undefined,
  };
}

/** The tag options of an Android item: `<xliff:g>` is kept whole. */
export function androidTags(tags: TagOptions): TagOptions {
  return { ...tags, ignore: new Set([...tags.ignore, "xliff:g"]) };
}

/** What aapt reads each escape as (any other escaped character as itself). */
const UNESCAPED: Readonly<Record<string, string>> = { n: "\n", t: "\t" };
const ESCAPE = /\\(u[\da-fA-F]{4}|[^])/g;

/** The character an escape (`n`, `'`, `u00e9`: what follows the backslash) stands for. */
function unescaped(escaped: string): string {
  return escaped.length === 5
    ? String.fromCharCode(parseInt(escaped.slice(1), 16))
    : UNESCAPED[escaped] ?? escaped;
}

/**
 * Text as aapt shows it (after XML's own reading). An escape of white space (`\n`, `\t`,
 * `\u0020`) is left as written: those are kept in place as placeholders ({@link kept}), as read
 * they would be white space the segment cuts off its edges by length, and a `\n` ending a string
 * came back as a bare line break, which aapt folds into a space.
 */
function unescape(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(ESCAPE, (written, escaped: string) => {
    const read = unescaped(escaped);
    return /\s/.test(read) ? written : read;
  });
}

/** How aapt needs each of these characters written. */
const ESCAPED: Readonly<Record<string, string>> = {
  "\\": "\\\\",
  "'": "\\'",
  '"': '\\"',
  "\n": "\\n",
  "\t": "\\t",
};

/**
 * A translated run escaped for aapt: its apostrophes, quotes, backslashes and line breaks, and
 * an `@` or `?` that starts the string (read as a resource reference).
 */
function escape(text: string, before: string | undefined): string {
  const escaped = text.replace(/[\\'"\n\t]/g, (character) => ESCAPED[character]);
  return before === undefined ? escaped.replace(/^[@?]/, "\\$&") : escaped;
}

/**
 * A string that is a resource reference (`@string/km`, `?android:attr/label`: aapt reads every
 * value starting with an unescaped `@` or `?` so), kept as written: translated, it named no
 * resource, and written back escaped (`\@`) it was text.
 */
const RESOURCE_REFERENCE = /^(\s*)([@?]\S*)\s*$/;

/**
 * What stays in place as a placeholder: an unescaped `"` (aapt's quoting), an escape of white
 * space (a line break inside a string stays where the source put it, as a subtitle cue's does),
 * and a resource reference that is the whole string.
 */
const KEPT = /\\(u[\da-fA-F]{4}|[^])|"/g;
const kept: SpanFinder = (text) => {
  const reference = RESOURCE_REFERENCE.exec(text);
  if (reference !== null) return [[reference[1].length, reference[1].length + reference[2].length]];
  const spans: [number, number][] = [];
  if (!text.includes('"') && !text.includes("\\")) return spans;
  for (const found of text.matchAll(KEPT)) {
    if (found[1] === undefined || /\s/.test(unescaped(found[1]))) {
      spans.push([found.index, found.index + found[0].length]);
    }
  }
  return spans;
};

/** A request's span finder for an Android item: its quoting and line breaks kept too. */
export function androidSpans(find: SpanFinder): SpanFinder {
  return bothSpans(find, kept);
}

/** XML's text rules with aapt's escapes on top (text only: xml translates no attribute). */
function androidRules(xml: TextRules): TextRules {
  const reading = xml.text;
  return {
    ...xml,
    text: {
      ...reading,
      decode: (written) => unescape(reading.decode(written)),
      escape: (text, before, after) => reading.escape(escape(text, before), before, after),
    },
  };
}
