/**
 * The fast Markdown readers (our own scanner, translation/formats/markdown_scan.ts, and marked,
 * translation/formats/markdown_marked.ts) against the reference (micromark): on the corpus and
 * on documents generated from a grammar of awkward shapes, wherever a fast reader does not
 * decline, the cut is the same — the same segments sent, and the same document back from the
 * same translations.
 */
import assert from "node:assert/strict";
import { cutMarkdown } from "../../../translation/formats/markdown.ts";
import { markedSyntax } from "../../../translation/formats/markdown_marked.ts";
import { scanSyntax } from "../../../translation/formats/markdown_scan.ts";
import { lexPlain } from "../../../translation/formats/markdown_marked_lexer.ts";
import { Marked } from "marked";
import { micromarkSyntax } from "../../../translation/formats/markdown_syntax.ts";
import { loadCorpus } from "../../support/document_structure.ts";
import { assertCutsLikeMicromark } from "../../support/markdown_reader_cut.ts";
import { document, documents, GENERATED } from "../../support/markdown_grammar.ts";
import { seededRandom } from "../../support/seeded_random.ts";

Deno.test("the fast reader reads every Markdown document of the corpus without falling back", () => {
  for (const { name, text } of loadCorpus().filter((d) => d.format === "markdown")) {
    assert.ok(markedSyntax(text), name);
  }
});

Deno.test("the own scanner reads every Markdown document of the corpus", () => {
  for (const { name, text } of loadCorpus().filter((d) => d.format === "markdown")) {
    assert.ok(scanSyntax(text), name);
  }
});

Deno.test("the own scanner cuts the corpus and generated documents exactly as micromark does", () => {
  const texts = documents(GENERATED * 2);
  // The same documents with what the grammar puts inside a line taken out of half of them: the
  // grammar's inline shapes make most documents decline, which would leave block shapes
  // (lists, quotes, tables, fences) little tested.
  for (const text of texts.splice(12)) {
    texts.push(text, text.replace(/[\\<`*~_@&$!]|\[\^?|https?:|www\./g, ""));
  }
  const read = assertCutsLikeMicromark(texts, scanSyntax);
  assert.ok(read > texts.length * 0.2, `${read} of ${texts.length} read by the scanner`);
});

Deno.test("the fast reader cuts the corpus and generated documents exactly as micromark does", () => {
  const read = assertCutsLikeMicromark(documents(GENERATED), markedSyntax);
  // Declining everything would pass the loop above. The grammar is built to find where the
  // readers part, so most of its documents are declined (about 70%); real ones are not (the
  // corpus, above, is read whole).
  assert.ok(read > GENERATED * 0.2, `${read} of ${GENERATED} read by marked`);
});

Deno.test("runs without inline syntax lexed as one text token give marked's own tokens", () => {
  const marked = new Marked({ gfm: true });
  const documents = loadCorpus().filter((d) => d.format === "markdown").map((d) => d.text);
  for (let seed = 1; seed <= GENERATED; seed++) {
    const next = seededRandom(seed);
    const text = document((options) => options[Math.floor(next() * options.length)]);
    // As generated (inline syntax nearly everywhere), and with the characters that start
    // inline syntax taken out, so that most runs take the one-token path.
    documents.push(text, text.replace(/[\\<[\]`*~_@&$]/g, ""));
  }
  for (const [index, text] of documents.entries()) {
    assert.deepEqual(lexPlain(text), marked.lexer(text), `#${index}: ${JSON.stringify(text)}`);
  }
});

Deno.test("a bare address after an unclosed [ is read by micromark, which does not link it", () => {
  const text = "[see https://example.org/a_b and [this](x)](y)";
  assert.equal(markedSyntax(text), undefined);
  assert.deepEqual(cutMarkdown(text).segments.map((s) => s.text), [
    "[see https://example.org/a_b and <x1>this</x1>](y)",
  ]);
});

Deno.test("a footnote defined in one document does not make another's [^1] a call", () => {
  // micromark's parser is built once and kept the labels it had read.
  cutMarkdown("Note[^1].\n\n[^1]: Defined here.\n", undefined, micromarkSyntax);
  assert.deepEqual(
    cutMarkdown("Plain [^1] text.", undefined, micromarkSyntax).segments.map((s) => s.text),
    ["Plain [^1] text."],
  );
});
