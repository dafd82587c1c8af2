/**
 * `format: "xml"` (DeepL's `tag_handling=xml`): markup read as XML, not as HTML. CAT tools and
 * other DeepL clients send a sentence with their own tags (`Press <x id="1"/> to <g id="2">save
 * </g>.`): read as HTML, `<x/>` would open an element holding the rest of the text and unknown
 * names would split the sentence at every tag. Here no name means anything (no never-translated
 * or raw-text elements, no implied ends, no translated attributes) and `<name/>` is one empty
 * element. Which tags split sentences is DeepL's outline detection: an element inside text
 * (`<b>` in `Press <b>OK</b>`) stays in its sentence as placeholders, an element whose parent
 * holds no text of its own (`<par>` in `<content>`, or `<g>` wrapping a whole item) is
 * structure, its tags between sentences; the request's tag options name elements that always
 * split, never split, or are kept whole untranslated, or turn the detection off (every element
 * inline). An element whose attributes refuse translation (`translate="no"` of XLIFF, DITA and
 * ITS, Android's `translatable="false"`, XLIFF 1.2's `mtype="protected"`) is kept whole as an
 * ignored one is. An Android resources item's text is read with aapt's escapes
 * (android_strings.ts), a feed post's HTML (escaped or in CDATA) and an Android string's CDATA
 * are translated as HTML and a feed's plain-text CDATA as text (xml_feeds.ts), an XLIFF file
 * keeps its sources and gets a target for each (xliff.ts), a .resx file's strings alone are
 * translated (resx.ts). Comments, other CDATA sections (code: DocBook's `<programlisting>`) and
 * processing instructions are kept whole inside the sentence; the XML declaration and a doctype
 * are kept between sentences. Malformed markup keeps its shape: a `<` that starts no tag is
 * text, an end tag that closes nothing is kept as it is, and what is left open stays open.
 * Sentences are cut, placeholdered and spliced back by offset as HTML's are (html.ts).
 */
import { DEFAULT_TAG_OPTIONS, type Format, type TagOptions } from "./format.ts";
import { XML_NAME } from "../../schemas/translation.ts";
import { cutTokens } from "./html.ts";
import type { TextRules } from "./html_text_rules.ts";
import { decodeXML } from "entities/decode";
import { textReading } from "./character_references.ts";
import { isBlank, type Token, token } from "./html_tokens.ts";
import { spanFinder } from "./text.ts";
import { androidReadings, androidSpans, androidTags } from "./android_strings.ts";
import { type Embedded, type EmbeddedReader, feedReadings } from "./xml_feeds.ts";
import { xmlVocabulary } from "./xml_root.ts";
import { resxContent } from "./resx.ts";
import { withCodeKept } from "./xml_code.ts";
import { cutXliff, xliffTags } from "./xliff.ts";
import { refusesTranslation } from "./xml_refusal.ts";

/** XML text. */
export const xmlFormat: Format = {
  cut: (text, options) => {
    const find = spanFinder(options.mode);
    const vocabulary = xmlVocabulary(text);
    if (vocabulary === "android") {
      const tags = androidTags(options.tags ?? DEFAULT_TAG_OPTIONS);
      const tokens = xmlTokens(text, tags, ANDROID.embedded);
      return cutTokens(text, tokens, ANDROID.rules, androidSpans(find));
    }
    if (typeof vocabulary === "object") {
      const tags = xliffTags(options.tags ?? DEFAULT_TAG_OPTIONS, vocabulary.prefix);
      return cutXliff(text, vocabulary, {
        target: options.target,
        cutInline: (source) => cutTokens(source, xmlTokens(source, tags), XML_TEXT, find),
      });
    }
    if (vocabulary === "feed") {
      return cutTokens(text, xmlTokens(text, options.tags, FEED.embedded), FEED.rules, find);
    }
    if (vocabulary === "resx") {
      return cutTokens(text, xmlTokens(text, options.tags, resxContent), XML_TEXT, find);
    }
    const tags = withCodeKept(options.tags ?? DEFAULT_TAG_OPTIONS, vocabulary);
    return cutTokens(text, xmlTokens(text, tags), XML_TEXT, find);
  },
};

/**
 * XML's way: its five named references and numeric ones reach the engine as their characters
 * (`&lt;3` as `<3`, as HTML sends it, where it spells no placeholder token); any other named one
 * is an entity a DTD defines (DocBook's `&product;`), kept whole as an atom. Translated text
 * escapes every `<`, `&` and `>`: what comes back is well-formed where the source was.
 */
const XML_READINGS = {
  text: xmlReading(escapeXml),
  "'": xmlReading((text) => escapeXml(text).replaceAll("'", "&apos;")),
  '"': xmlReading((text) => escapeXml(text).replaceAll('"', "&quot;")),
};
const XML_TEXT: TextRules = {
  text: XML_READINGS.text,
  attribute: (quote) => quote === "'" ? XML_READINGS["'"] : XML_READINGS['"'],
};
/** An Android resources item's: aapt's escapes read and written (android_strings.ts). */
const ANDROID = androidReadings(XML_TEXT);
/** A feed's: its HTML and plain-text fields read as such (xml_feeds.ts). */
const FEED = feedReadings(XML_TEXT, withoutNotXml);

/** A place's reading: references named as XML names them (`&product-name;`). */
function xmlReading(escape: (text: string) => string) {
  return textReading(decodeReference, escape, { name: XML_NAME, characters: true });
}

/**
 * A reference's characters, or undefined to keep it whole: a DTD's entity, or a number that
 * names no character (`&#0;`, a surrogate), which the decoder reads as U+FFFD and which would
 * then be written back in the source's place.
 */
function decodeReference(reference: string): string | undefined {
  const read = decodeXML(reference);
  if (read === reference) return undefined;
  return read === "\uFFFD" && codePointOf(reference) !== 0xfffd ? undefined : read;
}

/** The code point a numeric reference names (NaN for a named one). */
function codePointOf(reference: string): number {
  const hex = reference[2] === "x" || reference[2] === "X";
  return reference[1] === "#" ? parseInt(reference.slice(hex ? 3 : 2), hex ? 16 : 10) : NaN;
}

// XML 1.0 has no place for most C0 controls, not even as references: an engine's are dropped.
// deno-lint-ignore no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

function withoutNotXml(text: string): string {
  return text.replace(NOT_XML, "");
}

function escapeXml(text: string): string {
  return withoutNotXml(text).replaceAll("&", "&amp;").replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
}

/** A tag's name (XML's Name production, letters of any script), read where a tag starts. */
const NAME = new RegExp(XML_NAME.source, "uy");
/** Markup that is kept as it is and how it ends (to the end of the item when it does not). */
const KEPT: readonly { opens: string; ends: string; kind: Token["kind"] }[] = [
  { opens: "<!--", ends: "-->", kind: "atom" },
  { opens: "<![CDATA[", ends: "]]>", kind: "atom" },
  { opens: "<?xml ", ends: "?>", kind: "break" },
  // Other processing instructions sit in text as comments do (Oxygen's review comments in DITA:
  // `Click <?oxy_comment_start …?>here<?oxy_comment_end?> to save.`).
  { opens: "<?", ends: "?>", kind: "atom" },
];

/** An element as the reader met it: where its tags are among the tokens, and its parent. */
interface XmlElement {
  name: string;
  /** Index of its start tag's token (-1: the item itself). */
  open: number;
  /** Index of its end tag's token (its start tag's when written `<x/>`; -1: left unclosed). */
  close: number;
  /** Index of its last token: its end tag, or the last one before what ended it unclosed. */
  last: number;
  parent: XmlElement | undefined;
  /** It holds text of its own (not only inside child elements). */
  text: boolean;
  /** It sits inside a sentence: its tags are placeholders, not sentence breaks. */
  inline: boolean;
  /** It says it is not to be translated (`translate="no"`): kept whole, as an ignored tag. */
  refused: boolean;
  /** How its content is read where not as XML: its own way, or the first around it that has one. */
  reading: Embedded | undefined;
}

/**
 * The tokens of an XML item, in source order, read with the request's tag options; the CDATA and
 * text of an element `embedded` names (by its name and start tag) are read its way: a feed's
 * post as HTML (xml_feeds.ts), an Android string's CDATA too (android_strings.ts).
 */
export function xmlTokens(
  source: string,
  tags: TagOptions = DEFAULT_TAG_OPTIONS,
  embedded?: EmbeddedReader,
): Token[] {
  const tokens: Token[] = [];
  const item: XmlElement = {
    name: "",
    open: -1,
    close: -1,
    last: -1,
    parent: undefined,
    text: false,
    inline: false,
    refused: false,
    reading: undefined,
  };
  /** Open elements, the item first; every element in document order. */
  const open: XmlElement[] = [item];
  const elements: XmlElement[] = [];
  let textStart = 0;
  /** How the innermost open element's content is read (undefined: as XML). */
  const reading = () => open[open.length - 1].reading;
  const text = (end: number) => {
    if (end <= textStart) return;
    const blank = isBlank(source, textStart, end);
    const read = blank ? undefined : reading()?.text?.(source, textStart, end);
    if (read) return void tokens.push(read);
    if (!blank) open[open.length - 1].text = true;
    tokens.push(token(textStart, end, "text", blank));
  };
  const element = (tag: StartTag, index: number, parent: XmlElement, close: number) => {
    const { name, refused } = tag;
    const reading = parent.reading ?? embedded?.(name, source.slice(tag.start, tag.end));
    const made = {
      name,
      open: index,
      close,
      last: index,
      parent,
      text: false,
      inline: true,
      refused,
      reading,
    };
    elements.push(made);
    return made;
  };
  for (let at = source.indexOf("<"); at !== -1; at = source.indexOf("<", at + 1)) {
    // Only `<!` and `<?` start markup other than a tag.
    const declaration = source[at + 1] === "!" || source[at + 1] === "?";
    const kept = declaration
      ? KEPT.find((markup) => source.startsWith(markup.opens, at))
      : undefined;
    const tag = declaration ? undefined : readTag(source, at);
    const end = kept
      ? endOf(source, source.indexOf(kept.ends, at + kept.opens.length), kept.ends.length)
      : tag
      ? tag.end
      : declaration
      ? declarationEnd(source, at)
      : -1;
    if (end === -1) continue; // not markup: the `<` is text
    text(at);
    textStart = end;
    if (!tag) {
      const read = kept?.opens === "<![CDATA[" ? reading()?.cdata : undefined;
      tokens.push(read ? read(source, at, end) : token(at, end, kept ? kept.kind : "break"));
    } else if (tag.closing) {
      const index = open.findLastIndex((candidate) => candidate.name === tag.name);
      if (index < 1) tokens.push(token(at, end, "atom")); // closes nothing
      else {
        // What is still open inside it ends unclosed before this end tag.
        for (let inner = index + 1; inner < open.length; inner++) {
          open[inner].last = tokens.length - 1;
        }
        const ended = open[index];
        if (ended.text && elements.at(-1) === ended) {
          ended.reading?.ended?.(source, tokens, ended.open + 1);
        }
        open[index].last = open[index].close = tokens.length;
        tokens.push(token(at, end, "close", false, String(tokens[open[index].open].start)));
        open.length = index;
      }
    } else if (source[end - 2] === "/") {
      element(tag, tokens.length, open[open.length - 1], tokens.length);
      tokens.push(token(at, end, "atom"));
    } else {
      open.push(element(tag, tokens.length, open[open.length - 1], -1));
      tokens.push(token(at, end, "open", false, String(at)));
    }
    at = end - 1;
  }
  text(source.length);
  for (const unclosed of open.slice(1)) unclosed.last = tokens.length - 1;
  return keptWhole(outline(tokens, elements, tags), elements, tags.ignore);
}

/**
 * Which elements are structure: with outline detection (DeepL's default), an element whose
 * parent holds no text of its own and sits in no sentence (`<par>` in `<content>`) has its tags
 * between sentences, and one inside text (`<b>` in `Press <b>OK</b>`) stays in its sentence;
 * `splitting` tags always split, `non_splitting` ones never.
 */
function outline(tokens: Token[], elements: readonly XmlElement[], tags: TagOptions): Token[] {
  for (const element of elements) {
    const parent = element.parent!;
    element.inline = tags.splitting.has(element.name)
      ? false
      : tags.nonSplitting.has(element.name) || !tags.outlineDetection || parent.inline ||
        parent.text;
    if (element.inline) continue;
    for (const index of [element.open, element.close]) {
      if (index === -1) continue;
      const tag = tokens[index];
      tokens[index] = token(tag.start, tag.end, "break");
    }
  }
  return tokens;
}

/**
 * Each ignored element, and each that refuses translation, becomes one token, kept as it is: in
 * its sentence when inline.
 */
function keptWhole(
  tokens: Token[],
  elements: readonly XmlElement[],
  ignore: ReadonlySet<string>,
): Token[] {
  if (ignore.size === 0 && !elements.some((element) => element.refused)) return tokens;
  const kept: Token[] = [];
  let next = 0;
  const keep = (end: number) => {
    for (; next < end; next++) kept.push(tokens[next]);
  };
  for (const element of elements) {
    const whole = ignore.has(element.name) || element.refused;
    if (!whole || element.open < next) continue; // inside a kept one
    keep(element.open);
    const start = tokens[element.open].start;
    kept.push(token(start, tokens[element.last].end, element.inline ? "atom" : "break"));
    next = element.last + 1;
  }
  keep(tokens.length);
  return kept;
}

/** The end of markup whose closing delimiter is at `found` (-1: the end of the item). */
function endOf(source: string, found: number, length: number): number {
  return found === -1 ? source.length : found + length;
}

/**
 * What a doctype's end is looked for past: outside its internal subset a quoted literal, the
 * subset's `[` or the end; inside, a literal, a comment, a processing instruction or its `]`.
 */
const DOCTYPE_PARTS: Readonly<Record<"outside" | "subset", RegExp>> = {
  outside: /["'[>]/g,
  subset: /["'\]]|<!--|<\?/g,
};
/** How each part read past whole ends. */
const PART_ENDS: Readonly<Record<string, string>> = {
  '"': '"',
  "'": "'",
  "<!--": "-->",
  "<?": "?>",
};

/**
 * The end of a doctype or other declaration (`<!…>`). A doctype's quoted literals, and the
 * comments and processing instructions of its `[…]` internal subset, are read past whole: an
 * entity value `"[1.0]"` or a `<!-- ] -->` ended it early, and its `]>` went to the engine as
 * text. -1 when it does not end (the `<` is text); the end of the item when its subset does not.
 * Any other declaration outside a doctype is malformed, and ends at its first `>`.
 */
function declarationEnd(source: string, at: number): number {
  if (!/^<![A-Za-z]/.test(source.slice(at, at + 3))) return -1;
  if (!source.startsWith("<!DOCTYPE", at)) {
    const close = source.indexOf(">", at);
    return close === -1 ? -1 : close + 1;
  }
  let subset = false;
  for (let index = at + 2;;) {
    const parts: RegExp = DOCTYPE_PARTS[subset ? "subset" : "outside"];
    parts.lastIndex = index;
    const part: string | undefined = parts.exec(source)?.[0];
    if (part === undefined) return subset ? source.length : -1;
    index = parts.lastIndex;
    if (part === ">") return index;
    if (part === "[" || part === "]") subset = part === "[";
    else {
      const end = source.indexOf(PART_ENDS[part], index);
      if (end === -1) return subset ? source.length : -1;
      index = end + PART_ENDS[part].length;
    }
  }
}

/** A tag as read: its name, its place, and whether it ends an element or refuses translation. */
interface StartTag {
  name: string;
  start: number;
  end: number;
  closing: boolean;
  refused: boolean;
}

/**
 * The start tag (`<name attributes>` or `<name/>`) or end tag (`</name>`) at `at`, with its name
 * and end; undefined when none starts there. Quoted attribute values may hold `>`.
 */
function readTag(source: string, at: number): StartTag | undefined {
  const closing = source[at + 1] === "/";
  NAME.lastIndex = at + (closing ? 2 : 1);
  const name = NAME.exec(source)?.[0];
  if (name === undefined) return undefined;
  let index = NAME.lastIndex;
  if (closing) {
    while (/\s/.test(source[index] ?? "")) index++;
    return source[index] === ">"
      ? { name, start: at, end: index + 1, closing, refused: false }
      : undefined;
  }
  if (index < source.length && !/[\s/>]/.test(source[index])) return undefined;
  const attributes = index;
  for (let quote = ""; index < source.length; index++) {
    const char = source[index];
    if (quote) {
      if (char === quote) quote = "";
    } else if (char === '"' || char === "'") quote = char;
    else if (char === "<") return undefined;
    else if (char === ">") {
      const refused = refusesTranslation(source, attributes, index);
      return { name, start: at, end: index + 1, closing, refused };
    }
  }
  return undefined;
}
