/**
 * Which attributes of an HTML start tag are translated, and where their values are written.
 */
import type { StartTag } from "./html_tokens.ts";

/** An attribute of a start tag: its name (lower case) and where `name=value` is written. */
export interface HtmlAttribute {
  name: string;
  start: number;
  end: number;
}

/** The attributes of a tag without any, shared. */
export const NO_ATTRIBUTES: readonly HtmlAttribute[] = Object.freeze([]);

/**
 * `value`, `label` and `content` too, where a reader sees them (see {@link isShown}): elsewhere
 * they are data. A JSX component's `label` in MDX is shown too (Docusaurus's tab title).
 */
const TRANSLATED_ATTRIBUTES = new Set([
  "alt",
  "title",
  "placeholder",
  "aria-label",
  "value",
  "label",
  "content",
]);
/**
 * A JSX component's name in MDX, written with a capital (`<TabItem>`): its `label` is the text a
 * reader sees (Docusaurus's tab title); its `value` is data.
 */
const COMPONENT = /^<[A-Z]/;
/** The inputs whose `value` is the label a reader sees. */
const BUTTON_INPUT = /^(?:submit|button|reset)$/i;
/** What a drop-down shows for an `option` or `optgroup`, a caption menu for a `track`. */
const LABELLED = new Set(["option", "optgroup", "track"]);
/**
 * A `meta` whose `content` a search result or a link preview shows (not a keyword list, a
 * charset or a verification code).
 */
const SHOWN_META =
  /\s(?:name|property)\s*=\s*(["']?)(?:description|(?:og|twitter):(?:title|description|image:alt))\1(?=[\s/>])/i;

/**
 * Whether an attribute's value may be translated (`alt`, `title`, `placeholder`, `aria-label`;
 * `value`, `label` and `content` only where {@link attributeValues} finds them shown).
 */
export function isTranslatedAttribute(name: string): boolean {
  return TRANSLATED_ATTRIBUTES.has(name);
}

/** Whether a reader sees the value of `name` on `tag` (written at `tag.start` of `source`). */
function isShown(tag: StartTag, name: string, source: string): boolean {
  if (name === "value") return tag.name === "input" && BUTTON_INPUT.test(tag.type ?? "");
  if (name === "label") {
    return LABELLED.has(tag.name) || COMPONENT.test(source.slice(tag.start, tag.start + 2));
  }
  if (name === "content") {
    return tag.name === "meta" && SHOWN_META.test(source.slice(tag.start, tag.end));
  }
  return true;
}

/** [start, end) of each translated attribute's value inside its tag. */
export function attributeValues(tag: StartTag, source: string): [number, number][] | undefined {
  let values: [number, number][] | undefined;
  for (const attribute of tag.attributes) {
    if (!isShown(tag, attribute.name, source)) continue;
    const written = source.slice(attribute.start, attribute.end);
    const equals = /^[^=]*=\s*(["']?)/.exec(written);
    if (!equals) continue;
    const start = attribute.start + equals[0].length;
    const end = attribute.end - equals[1].length;
    if (end > start) (values ??= []).push([start, end]);
  }
  return values;
}
