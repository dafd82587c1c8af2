/**
 * A Markdown cut as a reader makes it, in a form two readers' cuts can be compared by: the
 * segments sent and the document back when every segment is upper-cased. Used by the readers'
 * differential test and by `deno task check:format-files` on real files.
 */
import assert from "node:assert/strict";
import { cutMarkdown } from "../../translation/formats/markdown.ts";
import { scanSyntax } from "../../translation/formats/markdown_scan.ts";
import { micromarkSyntax } from "../../translation/formats/markdown_syntax.ts";
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

/**
 * Asserts that wherever `read` gives a tree, the cut is micromark's; returns how many texts it
 * read, since a reader that declines everything would pass the comparison.
 */
export function assertCutsLikeMicromark(
  texts: Iterable<string>,
  read: (text: string) => ReturnType<typeof micromarkSyntax> | undefined,
): number {
  let readCount = 0;
  for (const text of texts) {
    const tree = read(text);
    if (!tree) continue;
    readCount++;
    assert.deepEqual(
      cutWith(text, () => tree),
      cutWith(text, micromarkSyntax),
      JSON.stringify(text),
    );
  }
  return readCount;
}

/** Asserts that the own scanner reads every one of `texts` (declines none) and cuts it as micromark. */
export function assertScannedLikeMicromark(texts: readonly string[]): void {
  for (const text of texts) assert.ok(scanSyntax(text), JSON.stringify(text.slice(0, 60)));
  assert.equal(assertCutsLikeMicromark(texts, scanSyntax), texts.length);
}
