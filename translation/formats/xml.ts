/**
 * `format: "xml"` (DeepL's `tag_handling=xml`): markup read as XML, not as HTML. CAT tools and
 * other DeepL clients send a sentence with their own tags (`Press <x id="1"/> to <g id="2">save
 * </g>.`): read as HTML, `<x/>` would open an element holding the rest of the text and unknown
 * names would split the sentence at every tag. Here every element is inline, so its tags stay
 * inside the sentence as placeholders; `<name/>` is one empty element; no name means anything
 * (no never-translated or raw-text elements, no implied ends, no translated attributes);
 * comments and CDATA sections are kept whole inside the sentence; the XML declaration, other
 * processing instructions and a doctype are kept between sentences. Malformed markup keeps its
 * shape: a `<` that starts no tag is text, an end tag that closes nothing is kept as it is, and
 * what is left open stays open. Sentences are cut, placeholdered and spliced back by offset as
 * HTML's are (html.ts).
 */
import type { Format } from "./format.ts";
import { cutTokens } from "./html.ts";
import { type Token, token } from "./html_tokens.ts";
import { spanFinder } from "./text.ts";

/** XML text. */
export const xmlFormat: Format = {
  cut: (text, options) => cutTokens(text, xmlTokens(text), spanFinder(options.mode)),
};

/** A tag's name (XML's Name production, letters of any script). */
const NAME = /[\p{L}_:][\p{L}\p{N}\p{M}_.:\-\u00B7]*/uy;
/** Markup that is kept as it is and how it ends (to the end of the item when it does not). */
const KEPT: readonly { opens: string; ends: string; kind: Token["kind"] }[] = [
  { opens: "<!--", ends: "-->", kind: "atom" },
  { opens: "<![CDATA[", ends: "]]>", kind: "atom" },
  { opens: "<?", ends: "?>", kind: "break" },
];

/** The tokens of an XML item, in source order. */
export function xmlTokens(source: string): Token[] {
  const tokens: Token[] = [];
  /** Open elements: their names and start tags' offsets. */
  const names: string[] = [];
  const starts: number[] = [];
  let textStart = 0;
  const text = (end: number) => {
    if (end > textStart) {
      tokens.push(token(textStart, end, "text", !/\S/.test(source.slice(textStart, end))));
    }
  };
  for (let at = source.indexOf("<"); at !== -1; at = source.indexOf("<", at + 1)) {
    const kept = KEPT.find((markup) => source.startsWith(markup.opens, at));
    const tag = kept || source.startsWith("<!", at) ? undefined : readTag(source, at);
    const end = kept
      ? endOf(source, source.indexOf(kept.ends, at + kept.opens.length), kept.ends.length)
      : tag
      ? tag.end
      : source.startsWith("<!", at)
      ? declarationEnd(source, at)
      : -1;
    if (end === -1) continue; // not markup: the `<` is text
    text(at);
    textStart = end;
    if (!tag) tokens.push(token(at, end, kept ? kept.kind : "break"));
    else if (tag.closing) {
      const index = names.lastIndexOf(tag.name);
      if (index === -1) tokens.push(token(at, end, "atom")); // closes nothing
      else {
        tokens.push(token(at, end, "close", false, String(starts[index])));
        names.length = starts.length = index;
      }
    } else if (source[end - 2] === "/") tokens.push(token(at, end, "atom"));
    else {
      names.push(tag.name);
      starts.push(at);
      tokens.push(token(at, end, "open", false, String(at)));
    }
    at = end - 1;
  }
  text(source.length);
  return tokens;
}

/** The end of markup whose closing delimiter is at `found` (-1: the end of the item). */
function endOf(source: string, found: number, length: number): number {
  return found === -1 ? source.length : found + length;
}

/** The end of a doctype or other declaration (`<!…>`, with a `[…]` internal subset). */
function declarationEnd(source: string, at: number): number {
  if (!/^<![A-Za-z]/.test(source.slice(at, at + 3))) return -1;
  const subset = source.indexOf("[", at);
  const close = source.indexOf(">", at);
  if (close === -1) return -1;
  if (subset === -1 || subset > close) return close + 1;
  const subsetEnd = source.indexOf("]", subset);
  return subsetEnd === -1 ? source.length : endOf(source, source.indexOf(">", subsetEnd), 1);
}

/**
 * The start tag (`<name attributes>` or `<name/>`) or end tag (`</name>`) at `at`, with its name
 * and end; undefined when none starts there. Quoted attribute values may hold `>`.
 */
function readTag(
  source: string,
  at: number,
): { name: string; end: number; closing: boolean } | undefined {
  const closing = source[at + 1] === "/";
  NAME.lastIndex = at + (closing ? 2 : 1);
  const name = NAME.exec(source)?.[0];
  if (name === undefined) return undefined;
  let index = NAME.lastIndex;
  if (closing) {
    while (/\s/.test(source[index] ?? "")) index++;
    return source[index] === ">" ? { name, end: index + 1, closing } : undefined;
  }
  if (index < source.length && !/[\s/>]/.test(source[index])) return undefined;
  for (let quote = ""; index < source.length; index++) {
    const char = source[index];
    if (quote) {
      if (char === quote) quote = "";
    } else if (char === '"' || char === "'") quote = char;
    else if (char === "<") return undefined;
    else if (char === ">") return { name, end: index + 1, closing };
  }
  return undefined;
}
