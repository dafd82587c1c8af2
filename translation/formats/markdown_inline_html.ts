/**
 * Inline HTML inside a Markdown segment follows the HTML rules: its tags pair up by name as
 * placeholders, and an element whose content is not translated is kept whole.
 *
 * Pure: no I/O.
 */
import { isIconFont, isNeverTranslated, refusedByClass } from "./html_elements.ts";
import { atom, close, type Markup, open, type SegmentPart } from "./placeholders.ts";

const HTML_OPEN = /^<([a-zA-Z][\w-]*)(?:\s[^<>]*)?>$/;
const HTML_CLOSE = /^<\/([a-zA-Z][\w-]*)\s*>$/;

/**
 * Inline HTML follows the HTML rules: an element whose content is never translated (`<kbd>`,
 * `<code>`, `<var>`..., an icon font's, or one marked `translate="no"` or `class="notranslate"`) is kept whole
 * with its content, one atom from its opening tag to its closing one (left as it is when it is
 * not closed in the block).
 */
export function keptWhole(parts: SegmentPart[]): SegmentPart[] {
  let names: Set<string> | undefined;
  for (const part of parts) {
    if (keepsContent(part)) (names ??= new Set()).add((part as Markup).name!);
  }
  if (!names) return parts;
  // Each close of such a name paired with the innermost open of its name, in one pass (a look
  // ahead from every open took the square of a paragraph of unclosed `<kbd>`s); the pair is kept
  // when its open keeps its content.
  const closeOf = new Map<number, number>();
  const open = new Map<string, number[]>();
  parts.forEach((part, index) => {
    if (typeof part === "string" || part.role === "atom" || !part.markup.startsWith("<")) return;
    if (!names.has(part.name!)) return;
    const opens = open.get(part.name!) ?? open.set(part.name!, []).get(part.name!)!;
    if (part.role === "open") opens.push(index);
    else if (opens.length > 0) {
      const opening = opens.pop()!;
      if (keepsContent(parts[opening])) closeOf.set(opening, index);
    }
  });
  const kept: SegmentPart[] = [];
  for (let index = 0; index < parts.length; index++) {
    const end = closeOf.get(index);
    if (end === undefined) {
      kept.push(parts[index]);
      continue;
    }
    let written = "";
    for (let at = index; at <= end; at++) {
      const piece = parts[at];
      written += typeof piece === "string" ? piece : piece.markup;
    }
    kept.push(atom(written));
    index = end;
  }
  return kept;
}

/** An opening HTML tag whose element's content is not translated. */
function keepsContent(part: SegmentPart): boolean {
  if (typeof part === "string" || part.role !== "open" || !part.markup.startsWith("<")) {
    return false;
  }
  return isNeverTranslated(part.name!) || refusesTranslation(part.markup);
}

const TRANSLATE_NO = /\stranslate\s*=\s*(["']?)no\1(?=[\s/>])/i;
const CLASS_VALUE = /\sclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;

/**
 * A start tag saying `translate="no"`, naming the class `notranslate` or an icon font's class
 * (html_elements.ts).
 */
function refusesTranslation(tag: string): boolean {
  if (TRANSLATE_NO.test(tag)) return true;
  const classes = CLASS_VALUE.exec(tag);
  const value = classes ? classes[1] ?? classes[2] ?? classes[3] : undefined;
  return refusedByClass(value) || isIconFont(value);
}

/** Inline HTML: an opening or closing tag pairs up by name; anything else is kept whole. */
export function htmlTag(written: string): SegmentPart {
  const opening = HTML_OPEN.exec(written);
  if (opening) return open(written, opening[1].toLowerCase());
  const closing = HTML_CLOSE.exec(written);
  if (closing) return close(written, closing[1].toLowerCase());
  return atom(written);
}
