/**
 * Whether a text is well-formed XML, for DeepL's tag handling v2, which parses XML strictly and
 * refuses what is not (tolk's own `format: "xml"` keeps malformed markup as it was instead).
 * A DeepL text is a fragment — text around and between elements, several elements side by side
 * — so it is checked inside an element of its own, and the checker's (fast-xml-parser) lines,
 * columns and words are told about the text as sent.
 */
import { XMLValidator } from "fast-xml-parser";
import { XML_NAME } from "../schemas/translation.ts";

/**
 * The element the fragment is checked in. A text with a tag of this name could end it early and
 * be judged by what is left; no client's markup uses the name.
 */
const FRAGMENT = "tolk-text";
const OPENING = `<${FRAGMENT}>`;

/** An entity reference by name (`&product-name;`, `&Straße;`). */
const ENTITY_REFERENCE = new RegExp(`&(${XML_NAME.source});`, "gu");

/**
 * The text with each entity reference spelt as the checker reads one: it takes only names of
 * at most 20 ASCII word characters, and refused DocBook's `&product-name;` as a stray `&`.
 * Same length, so its lines and columns are the text's.
 */
function checkerReferences(text: string): string {
  return text.replace(
    ENTITY_REFERENCE,
    (_, name: string) =>
      `&${name.length <= 20 ? "a".repeat(name.length) : "#" + "0".repeat(name.length - 1)};`,
  );
}

/** The sections markup opens and what closes each. */
const SECTIONS: readonly (readonly [string, string])[] = [
  ["<![CDATA[", "]]>"],
  ["<!--", "-->"],
  ["<?", "?>"],
  ["<!DOCTYPE", ">"],
];

/** Where `index` is in `text`, as the answers say it: `line L, column C`. */
function position(text: string, index: number): string {
  const before = text.slice(0, index).split("\n");
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

/**
 * The first CDATA section, comment or processing instruction that `text` leaves open, with its
 * line and column. The checker blames its own wrapping element for these ("Unclosed tag
 * 'tolk-text'" at column -10), so they are found here, in order (a `<!--` inside a CDATA
 * section opens nothing).
 */
function unclosedSection(text: string): string | undefined {
  let from = 0;
  for (;;) {
    const opened =
      SECTIONS.map(([opener, closer]) => ({ opener, closer, at: text.indexOf(opener, from) }))
        .filter((section) => section.at >= 0)
        .sort((a, b) => a.at - b.at)[0];
    if (opened === undefined) return undefined;
    const closed = text.indexOf(opened.closer, opened.at + opened.opener.length);
    if (closed < 0) return `${opened.opener} at ${position(text, opened.at)} is never closed`;
    from = closed + opened.closer.length;
  }
}

/**
 * Markup as a well-formed text holds it, in order: sections (whose content is free), tags with
 * their attributes (a quoted value may hold `>`), and what is left of `]]>` in character data.
 */
const MARKUP =
  /<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!DOCTYPE[^>]*>|<[^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*>|\]\]>/g;

/** An attribute of a tag and its quoted value. */
const ATTRIBUTE = /([^\s=<>/"']+)\s*=\s*("[^"]*"|'[^']*')/g;

/**
 * What XML 1.0 forbids and the checker lets through in a text it accepted: `]]>` in character
 * data, `<` in an attribute value.
 */
function forbiddenCharacters(text: string): string | undefined {
  for (const markup of text.matchAll(MARKUP)) {
    if (markup[0] === "]]>") {
      return `']]>' at ${
        position(text, markup.index)
      } is only allowed as the end of a CDATA section`;
    }
    if (markup[0].startsWith("<!") || markup[0].startsWith("<?")) continue;
    for (const attribute of markup[0].matchAll(ATTRIBUTE)) {
      if (!attribute[2].includes("<")) continue;
      const at = markup.index + attribute.index;
      return `'<' in the value of attribute '${attribute[1]}' at ${position(text, at)}`;
    }
  }
  return undefined;
}

/** Why `text` is not well-formed XML (with its line and column), or undefined when it is. */
export function xmlProblem(text: string): string | undefined {
  const verdict = XMLValidator.validate(`${OPENING}${checkerReferences(text)}</${FRAGMENT}>`);
  if (verdict === true) return forbiddenCharacters(text);
  const section = unclosedSection(text);
  if (section !== undefined) return section;
  const { msg, line, col } = verdict.err;
  // A text that ends inside a tag: the checker read its name on into the wrapping closing tag.
  if (msg.includes(`</${FRAGMENT}`)) {
    const at = text.lastIndexOf("<");
    return `'${text.slice(at).trimEnd()}' at ${position(text, at)} has no closing '>'`;
  }
  const at = (l: number, c: number) => `line ${l}, column ${l === 1 ? c - OPENING.length : c}`;
  const unclosed = msg.match(
    new RegExp(
      `^Expected closing tag '(.+)' \\(opened in line (\\d+), col (\\d+)\\) instead of closing tag '${FRAGMENT}'`,
    ),
  );
  if (unclosed) {
    return `<${unclosed[1]}> at ${at(Number(unclosed[2]), Number(unclosed[3]))} is never closed`;
  }
  const stray = msg.match(
    new RegExp(`^Expected closing tag '${FRAGMENT}' .* instead of closing tag '(.+)'`),
  );
  if (stray) return `</${stray[1]}> at ${at(line, col)} closes nothing`;
  // Anything else the checker blames on the wrapping element, which the client never sent.
  if (msg.includes(FRAGMENT)) return "markup opened in the text is never closed";
  const said = msg.replace(
    / \(opened in line (\d+), col (\d+)\)/g,
    (_, l, c) => ` (opened at ${at(Number(l), Number(c))})`,
  ).replace(/\.$/, "");
  return `${said} at ${at(line, col)}`;
}
