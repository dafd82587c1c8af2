/**
 * The formats this service translates, by the name a request's `format` field gives. The
 * capabilities' `features.html` and `features.markdown` are derived from this registry
 * (schemas/features.ts), so a format is advertised exactly when it is registered. `xml` (DeepL's
 * `tag_handling=xml`) has no flag in the contract's set; the OpenAPI document's `format` lists it.
 */
import type { TranslationFormat } from "../../schemas/translation.ts";
import type { CutItem, Format } from "./format.ts";
import { htmlFormat } from "./html.ts";
import { markdownFormat } from "./markdown.ts";
import { textFormat } from "./text.ts";
import { xmlFormat } from "./xml.ts";

/** Registered formats. */
export const FORMATS: Readonly<Record<TranslationFormat, Format>> = {
  text: textFormat,
  html: htmlFormat,
  markdown: markdownFormat,
  xml: xmlFormat,
};

/** The names of the registered formats, which turn `features.html` and `.markdown` on. */
export const REGISTERED_FORMATS = Object.keys(FORMATS) as TranslationFormat[];

/**
 * The text a reader sees in a cut item (markup, code and never-translated parts left out),
 * which is what language detection reads.
 */
export function visibleText(cut: CutItem): string {
  let text = "";
  for (const segment of cut.segments) {
    if (!segment.translatable) continue;
    if (text !== "") text += "\n";
    text += segment.runs.join(" ");
  }
  return text;
}
