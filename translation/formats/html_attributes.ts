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

/** `value` too: the label of a button written as an input (see {@link attributeValues}). */
const TRANSLATED_ATTRIBUTES = new Set(["alt", "title", "placeholder", "aria-label", "value"]);
/** The inputs whose `value` is the label a reader sees. */
const BUTTON_INPUT = /^(?:submit|button|reset)$/i;

/**
 * Whether an attribute's value may be translated (`alt`, `title`, `placeholder`, `aria-label`,
 * and `value`, which is only on a button's input).
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
    const written = source.slice(attribute.start, attribute.end);
    const equals = /^[^=]*=\s*(["']?)/.exec(written);
    if (!equals) continue;
    const start = attribute.start + equals[0].length;
    const end = attribute.end - equals[1].length;
    if (end > start) (values ??= []).push([start, end]);
  }
  return values;
}
