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
 * `value` too: the label of a button written as an input; and `label`, a JSX component's (see
 * {@link attributeValues}).
 */
const TRANSLATED_ATTRIBUTES = new Set([
  "alt",
  "title",
  "placeholder",
  "aria-label",
  "value",
  "label",
]);
/**
 * A JSX component's name in MDX, written with a capital (`<TabItem>`): its `label` is the text a
 * reader sees (Docusaurus's tab title), while HTML's `label` (`<option>`, `<track>`) is left as
 * the HTML format has always left it.
 */
const COMPONENT = /^<[A-Z]/;
/** The inputs whose `value` is the label a reader sees. */
const BUTTON_INPUT = /^(?:submit|button|reset)$/i;

/**
 * Whether an attribute's value may be translated (`alt`, `title`, `placeholder`, `aria-label`,
 * `value`, which is only on a button's input, and `label`, only on a JSX component).
 */
export function isTranslatedAttribute(name: string): boolean {
  return TRANSLATED_ATTRIBUTES.has(name);
}

/** [start, end) of each translated attribute's value inside its tag. */
export function attributeValues(tag: StartTag, source: string): [number, number][] | undefined {
  let values: [number, number][] | undefined;
  for (const attribute of tag.attributes) {
    if (
      attribute.name === "value" && !(tag.name === "input" && BUTTON_INPUT.test(tag.type ?? ""))
    ) {
      continue;
    }
    if (attribute.name === "label" && !COMPONENT.test(source.slice(tag.start, tag.start + 2))) {
      continue;
    }
    const written = source.slice(attribute.start, attribute.end);
    const equals = /^[^=]*=\s*(["']?)/.exec(written);
    if (!equals) continue;
    const start = attribute.start + equals[0].length;
    const end = attribute.end - equals[1].length;
    if (end > start) (values ??= []).push([start, end]);
  }
  return values;
}
