/**
 * TMX 1.4 (https://www.gala-global.org/tmx-14b) in and out for the translation memory.
 *
 * Export writes one `<tu>` per entry with `srclang`, a `creationdate`, the origin as
 * `<prop type="x-tolk-origin">` and an engine's steering as `<prop type="x-tolk-steering">`; the
 * placeholder tokens of remembered HTML, Markdown or subtitle segments are inline codes (see
 * segXml), and import reads those codes back as the tokens. Import reads every `<tu>`: the source
 * variant is the one in the unit's (or the header's) `srclang` (by tag, else by language), else
 * the first (with `*all*`, every variant is a source in turn); every other variant in another of
 * the 16 languages becomes an entry. Paired codes (`bpt`, `ept`, `it`: formatting around text) are
 * dropped, so `Click <b>Save</b>` is the text a plain request sends; a standalone code (`ph`, `ut`)
 * is read as the native code it holds (OmegaT's `<ph>{0}</ph>` is `{0}`, as the text to translate
 * has it); the text of `hi` and `sub` is kept.
 * A variant over 8000 characters (a request's limit: never looked up) is skipped and counted.
 * A variant that cannot be read faithfully is skipped and counted: an empty standalone code
 * (Trados's `<ph type="lb"/>`: what it stood for is not written), an entity a DTD defines, or a
 * character reference to no character (`&#0;`). Dropping or replacing any of them made an entry
 * of other text (`Found  files`), one that would win as the user's own. Pure: no I/O.
 */
import { decodeXML } from "entities/decode";
import { XMLParser } from "fast-xml-parser";
import { isPlaceholderToken, splitAtPlaceholders } from "../../engines/placeholder_tokens.ts";
import { isLanguageCode, type LanguageCode } from "../../schemas/languages.ts";
import { countCodePoints, LIMITS } from "../../schemas/translation.ts";

/** One pair read from or written to TMX. */
export interface TmxEntry {
  sourceLang: string;
  targetLang: string;
  source: string;
  target: string;
  origin: "user" | "engine";
  /** Epoch seconds, when known. */
  created?: number;
  /**
   * The digest of what steered an engine's translation (`steeringOf`), written as
   * `<prop type="x-tolk-steering">`: without it an imported translation made under a context was
   * an exact hit for requests under none.
   */
  steering?: string;
}

/** What an import found. */
export interface TmxImport {
  entries: TmxEntry[];
  /** Variants that could not become entries (unknown language, empty, no partner). */
  skipped: number;
}

/** The document is not TMX. */
export class TmxError extends Error {
  override name = "TmxError";
}

/** Writes entries as a TMX 1.4 document. */
export function toTmx(entries: Iterable<TmxEntry>, toolVersion: string): string {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n',
    `  <header creationtool="tolk" creationtoolversion="${escape(toolVersion)}" ` +
    'segtype="sentence" o-tmf="tolk" adminlang="en" srclang="*all*" datatype="plaintext"/>\n',
    "  <body>\n",
  ];
  for (const entry of entries) {
    const date = entry.created === undefined ? "" : ` creationdate="${tmxDate(entry.created)}"`;
    parts.push(
      `    <tu srclang="${escape(entry.sourceLang)}"${date}>` +
        `<prop type="x-tolk-origin">${entry.origin}</prop>` +
        (entry.steering ? `<prop type="x-tolk-steering">${escape(entry.steering)}</prop>` : "") +
        `<tuv xml:lang="${escape(entry.sourceLang)}"><seg>${segXml(entry.source)}</seg></tuv>` +
        `<tuv xml:lang="${escape(entry.targetLang)}"><seg>${segXml(entry.target)}</seg></tuv>` +
        "</tu>\n",
    );
  }
  parts.push("  </body>\n</tmx>\n");
  return parts.join("");
}

/**
 * Reads a TMX document.
 *
 * @throws {TmxError} when the text is not XML with a `<tmx>` root and one `<body>`.
 */
export function fromTmx(xml: string): TmxImport {
  if (xml.trim() === "") throw new TmxError("the body is empty");
  let document: Record<string, unknown>;
  try {
    document = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "",
      stopNodes: ["*.seg"],
      isArray: (name) => name === "tu" || name === "tuv" || name === "prop",
      parseTagValue: false,
      parseAttributeValue: false,
      processEntities: false,
      trimValues: false,
    }).parse(xml, true) as Record<string, unknown>;
  } catch (error) {
    throw new TmxError(cutShort(xml) ?? `not well-formed XML${inWords((error as Error).message)}`);
  }
  const tmx = document.tmx as Record<string, unknown> | undefined;
  if (!tmx || typeof tmx !== "object") throw new TmxError("the root element is not <tmx>");
  const body = tmx.body as Record<string, unknown> | undefined | "";
  if (body === undefined) throw new TmxError("<tmx> has no <body>");
  if (Array.isArray(body)) throw new TmxError("<tmx> has more than one <body>");
  const header = (tmx.header ?? {}) as Record<string, string>;
  const units = (typeof body === "object" ? body.tu ?? [] : []) as Record<string, unknown>[];
  const entries: TmxEntry[] = [];
  let skipped = 0;
  for (const unit of units) {
    const variants = ((unit.tuv ?? []) as Record<string, unknown>[]).map((tuv) => ({
      lang: String(tuv["xml:lang"] ?? tuv.lang ?? ""),
      text: segText(tuv.seg),
    }));
    const declared = String(unit.srclang ?? header.srclang ?? "").toLowerCase();
    const sources = declared === "*all*"
      ? variants.map((_, index) => index)
      : [sourceIndex(variants, declared)];
    const origin = originOf(unit);
    const steering = origin === "engine" ? steeringProp(unit) : undefined;
    const created = parseTmxDate(String(unit.creationdate ?? ""));
    for (const sourceIndex of sources) {
      const source = variants[sourceIndex];
      const sourceLang = source && toLanguageCode(source.lang);
      variants.forEach((variant, index) => {
        if (index === sourceIndex) return;
        const targetLang = toLanguageCode(variant.lang);
        // A variant in the source's own language (en-GB beside en-US, zh-CN beside zh-SG) is no
        // translation: an en→en entry is never looked up, and POST /v1/memory/entries refuses one.
        const usable = sourceLang && targetLang && sourceLang !== targetLang;
        if (!usable || !storable(source.text) || !storable(variant.text)) {
          skipped++;
          return;
        }
        entries.push({
          sourceLang,
          targetLang,
          source: source.text,
          target: variant.text,
          origin,
          created,
          ...(steering === undefined ? {} : { steering }),
        });
      });
    }
    if (variants.length < 2) skipped += variants.length || 1;
  }
  return { entries, skipped };
}

/**
 * Whether a variant's text can be an entry: not only white space, and no longer than a request's
 * text may be (8000 code points). A longer source is never looked up (a request cannot send it),
 * and POST /v1/memory/entries refuses one; it only filled the memory and the export.
 */
function storable(text: string): boolean {
  return text.trim() !== "" && countCodePoints(text) <= LIMITS.max_chars_per_item;
}

/**
 * The variant in the declared source language: the same tag, else the same one of the 16 (a
 * header's `en` and a unit's `en-US`: taking the first variant then stored `de` → `en` entries
 * for an `en` → `de` memory whose units list German first), else the first.
 */
function sourceIndex(variants: readonly { lang: string }[], declared: string): number {
  const same = variants.findIndex((variant) => variant.lang.toLowerCase() === declared);
  if (same >= 0) return same;
  const language = toLanguageCode(declared);
  if (language === undefined) return 0;
  return Math.max(0, variants.findIndex((variant) => toLanguageCode(variant.lang) === language));
}

/**
 * Why a `<tmx>` document that is not well-formed has no `</tmx>`: it was cut short (a download or
 * copy that stopped). The parser's own message names whatever the cut fell in (`boolean attribute
 * 'xml:la' is not allowed`, or every open tag at line 1, column 1). A document with more after
 * its `</tmx>` is not cut: the parser's message says what follows.
 */
function cutShort(xml: string): string | undefined {
  if (!/<tmx[\s>/]/.test(xml) || xml.includes("</tmx")) return undefined;
  let lines = 1;
  for (let at = xml.indexOf("\n"); at >= 0; at = xml.indexOf("\n", at + 1)) lines++;
  return `the document stops at line ${lines} before its closing </tmx>: the file is cut short`;
}

/**
 * fast-xml-parser's validation message (`Expected closing tag 'tuv' … 'tu'.:2:38`) as words:
 * ` at line 2, column 38: Expected …`, so that the person fixing the file finds the place.
 */
function inWords(message: string): string {
  const match = /^([\s\S]*?)\.?:(\d+):(\d+|undefined)$/.exec(message);
  if (!match) return `: ${message}`;
  const column = match[3] === "undefined" ? "" : `, column ${match[3]}`;
  return ` at line ${match[2]}${column}: ${match[1]}`;
}

/** Maps a TMX language tag to one of the 16 codes, or undefined. */
export function toLanguageCode(tag: string): LanguageCode | undefined {
  // cmn is ISO 639-3's Mandarin, which some tools write for Chinese.
  const lower = tag.toLowerCase().replaceAll("_", "-").replace(/^cmn(?=-|$)/, "zh");
  // zh-CHS and zh-CHT are the names older Windows tools (.NET cultures) give the two scripts.
  if (/^zh(-(hans|chs|cn|sg|my))?$/.test(lower) || lower.startsWith("zh-hans")) return "zh-Hans";
  if (/^zh-(hant|cht|tw|hk|mo)/.test(lower)) return "zh-Hant";
  const [primary, second] = lower.split("-");
  const language = primary === "tl" ? "fil" : primary === "in" ? "id" : primary;
  if (!isLanguageCode(language)) return undefined;
  // A script subtag other than the language's own (Malay in Jawi, Japanese in rōmaji) is other
  // text: as the target of an en→ms entry it answered a request in the Arabic script.
  const script = second?.length === 4 ? second : undefined;
  if (script !== undefined && !(SCRIPTS[language] ?? ["latn"]).includes(script)) return undefined;
  return language;
}

/** The script subtags of the 16 languages' own writing (Latin for those not listed). */
const SCRIPTS: Partial<Record<LanguageCode, readonly string[]>> = {
  th: ["thai"],
  my: ["mymr"],
  km: ["khmr"],
  lo: ["laoo"],
  ja: ["jpan", "hira", "kana", "hrkt", "hani"],
  ko: ["kore", "hang"],
};

function originOf(unit: Record<string, unknown>): "user" | "engine" {
  // A TMX from elsewhere is the user's own memory.
  return propText(unit, "x-tolk-origin") === "engine" ? "engine" : "user";
}

/** The steering digest of an engine's unit; a value `steeringOf` cannot have made is none. */
function steeringProp(unit: Record<string, unknown>): string | undefined {
  const value = propText(unit, "x-tolk-steering");
  return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
}

/** The text of a unit's `<prop>` of this type, trimmed; "" when it has none. */
function propText(unit: Record<string, unknown>, type: string): string {
  const props = (unit.prop ?? []) as Record<string, unknown>[];
  return String(props.find((prop) => prop.type === type)?.["#text"] ?? "").trim();
}

/** A standalone code with nothing inside: the native code it stands for is not written. */
const EMPTY_CODE = /<(ph|ut)\b[^>]*(?:\/>|>\s*<\/\1>)/;
/** Paired codes with what they hold (an empty one too). */
const PAIRED_CODE = /<(bpt|ept|it)\b[^>]*(?:\/>|>([\s\S]*?)<\/\1>)/g;
/** A comment, or a CDATA section with its text. */
const MARKED_SECTION = /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>/g;
/** A reference to an entity a DTD defines (XML's five and numeric ones are decoded). */
const DTD_ENTITY = /&(?!(?:#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);)[^;\s]+;/i;

/**
 * The text of a `<seg>`'s raw inner XML, inline codes as the native code they hold; "" when it
 * cannot be read faithfully (the variant is then skipped).
 */
function segText(raw: unknown): string {
  if (typeof raw !== "string" || EMPTY_CODE.test(raw)) return "";
  // Codes hold their native code as escaped text (`<ph>{0}</ph>`, `<bpt>&lt;b&gt;</bpt>`):
  // paired ones go whole, then every tag (`ph`, `hi`, `sub`), leaving text decoded once.
  // A paired code that holds one of tolk's placeholder tokens (written by segXml) is that token.
  // A CDATA section is text as written (some tools wrap every segment in one); a comment is none.
  // A control character's code (written by segXml) is that character.
  const text = raw
    .replace(MARKED_SECTION, (_, cdata?: string) => cdata === undefined ? "" : escape(cdata))
    .replace(CONTROL_CODE, (code, hex: string) => controlCharacter(hex) ?? code)
    .replace(
      PAIRED_CODE,
      (_, _name, inner = "") => isPlaceholderToken(decodeXML(inner)) ? inner : "",
    )
    .replace(/<[^>]+>/g, "");
  return DTD_ENTITY.test(text) || refersToNoCharacter(text) ? "" : decodeXML(text);
}

/**
 * Whether a character reference names no character a text can hold (U+0000, half a surrogate
 * pair, past U+10FFFF): XML forbids them, and decoding made each a U+FFFD, an entry of other text.
 */
function refersToNoCharacter(text: string): boolean {
  for (const [, hex, decimal] of text.matchAll(/&#(?:x([0-9a-f]+)|(\d+));/gi)) {
    const code = hex === undefined ? Number(decimal) : parseInt(hex, 16);
    if (code === 0 || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return true;
  }
  return false;
}

/**
 * A `<seg>`'s content: the text escaped, and the placeholder tokens that stand for a format's
 * inline markup in remembered segments (`Click <x1>Save</x1>`, engines/placeholder_tokens.ts) as
 * TMX's inline codes, so that a CAT tool shows them as tags, not as text to translate: `<bpt>`
 * and `<ept>` for a pair in the segment, `<it>` for half a pair, `<ph>` for a standalone one. Each
 * code holds the token as its native code, which import reads back. A character XML cannot carry
 * is a code too ({@link controlCode}).
 */
function segXml(text: string): string {
  const parts = splitAtPlaceholders(text);
  const tokens = parts.flatMap((part) => typeof part === "string" ? [] : [part.token]);
  const once = (token: string) => tokens.indexOf(token) === tokens.lastIndexOf(token);
  return parts.map((part) => {
    if (typeof part === "string") return escapeMarkup(part).replace(NOT_IN_XML, controlCode);
    const { token, number, kind } = part;
    const native = escape(token);
    if (kind === "alone") return `<ph x="${number}">${native}</ph>`;
    const [open, close] = [`<x${number}>`, `</x${number}>`];
    const paired = once(open) && once(close) && tokens.indexOf(open) < tokens.indexOf(close);
    if (paired && kind === "open") return `<bpt i="${number}">${native}</bpt>`;
    if (paired) return `<ept i="${number}">${native}</ept>`;
    return `<it pos="${kind === "open" ? "begin" : "end"}">${native}</it>`;
  }).join("");
}

// XML 1.0 cannot carry most C0 controls, even as references.
// deno-lint-ignore no-control-regex
const NOT_IN_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
/** segXml's code for one of them, with the reference as its native code. */
const CONTROL_CODE = /<ph type="x-tolk-char">&amp;#x([0-9a-f]{1,4});<\/ph>/gi;

/**
 * A character XML cannot carry in a segment (Word's line break U+000B, a bell), as a standalone
 * code holding its reference (`&#xB;`), which import reads back as the character: dropping it
 * made another text ("Line\vbreak" came back as "Linebreak", and replaced that entry).
 */
function controlCode(char: string): string {
  const hex = char.charCodeAt(0).toString(16).toUpperCase();
  return `<ph type="x-tolk-char">&amp;#x${hex};</ph>`;
}

/** The character of a {@link CONTROL_CODE}; undefined for one the memory cannot hold (U+0000). */
function controlCharacter(hex: string): string | undefined {
  const char = String.fromCharCode(parseInt(hex, 16));
  return char !== "\u0000" && char.replace(NOT_IN_XML, "") === "" ? char : undefined;
}

/** Text as attribute value or element content, less the characters XML cannot carry. */
function escape(text: string): string {
  return escapeMarkup(text.replace(NOT_IN_XML, ""));
}

function escapeMarkup(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/\r/g, "&#13;");
}

/** TMX dates: `YYYYMMDDThhmmssZ`. */
function tmxDate(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

function parseTmxDate(text: string): number | undefined {
  const match = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number);
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  // No such day (month 13), or before 1970 (.NET tools write 00010101T000000Z for none, which
  // Date.UTC read as 1901): unknown, so the entry gets the time of the import; `created` is never
  // negative (schemas/memory.ts).
  const sameDay = date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d;
  return sameDay && date.getTime() >= 0 ? date.getTime() / 1000 : undefined;
}
