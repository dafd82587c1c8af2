/**
 * A Markdown cut as a reader makes it, in a form two readers' cuts can be compared by: the
 * segments sent and the document back when every segment is upper-cased. Used by the readers'
 * differential test and by `deno task check:format-files` on real files.
 */
import { cutMarkdown } from "../../translation/formats/markdown.ts";
import type { Syntax } from "../../translation/formats/markdown_syntax.ts";
import { upperCase } from "./format_engines.ts";

/** What a reader's cut sends and gives back. */
export interface ReaderCut {
  sent: string[];
  translated: string;
}

/** The cut of `text` from the syntax tree `read` gives. */
export function cutWith(text: string, read: (source: string) => Syntax): ReaderCut {
  const cut = cutMarkdown(text, undefined, read);
  const translated = cut.assemble(
    cut.segments.map((segment) => (render) => segment.restore(upperCase(segment.text), render)!),
  );
  return { sent: cut.segments.map((segment) => segment.text), translated };
}
