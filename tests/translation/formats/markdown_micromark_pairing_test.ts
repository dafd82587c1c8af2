/**
 * micromark with emphasis and strikethrough paired (translation/formats/
 * markdown_micromark_pairing.ts) and footnote calls after image starts found
 * (markdown_micromark_footnote_call.ts) in linear time, against micromark as published: the same
 * syntax tree on the corpus, on random texts of delimiters and brackets, and on the shapes that
 * took the published code the square of their length.
 */
import assert from "node:assert/strict";
import { micromarkParser, micromarkSyntax } from "../../../translation/formats/markdown_syntax.ts";
import { markedSyntax } from "../../../translation/formats/markdown_marked.ts";
import { MARKED_DELIMITER_RUNS } from "../../../translation/formats/markdown_marked_guards.ts";
import { loadCorpus } from "../../support/document_structure.ts";
import { seededRandom } from "../../support/seeded_random.ts";

// Built after the service's parser: patching that one must leave this one as published.
const PUBLISHED = micromarkParser(false);

function assertPairsAsPublished(text: string): void {
  assert.deepEqual(micromarkSyntax(text), micromarkSyntax(text, PUBLISHED), JSON.stringify(text));
}

const PIECES = [
  ...["*", "**", "***", "_", "__", "~", "~~", "*_", "a", "b", " ", " ", ".", "!", "x_y", "a*b"],
  ...["[", "]", "](u)", "`", "\\", "<i>", "\n", "\n> ", "\n- ", "$", "https://e.org", "é"],
];

Deno.test("emphasis and strikethrough pair as published micromark pairs them, on random texts", () => {
  for (let seed = 1; seed <= 5000; seed++) {
    const next = seededRandom(seed);
    const pick = () => PIECES[Math.floor(next() * PIECES.length)];
    assertPairsAsPublished(Array.from({ length: 1 + Math.floor(next() * 48) }, pick).join(""));
  }
});

Deno.test("the corpus's Markdown documents pair as published micromark pairs them", () => {
  for (const { text } of loadCorpus().filter((d) => d.format === "markdown")) {
    assertPairsAsPublished(text);
  }
});

Deno.test("delimiters that pair with nothing, where the published walk grew with the square", () => {
  // At 8,000 code points the published resolvers took 0.4 to 1.1 s on these; 4 to 73 ms now
  // (`deno task bench:formats`). Shorter here: the published parser reads them too.
  for (const unit of ["a*_", "*a_", "**a_", "*_", "_a*b ", "a~ ", "~a~~", "*a ", "a_ "]) {
    assertPairsAsPublished(unit.repeat(Math.floor(1500 / unit.length)));
  }
});

/** Pieces of brackets around image starts, footnote calls and links; definitions after some. */
const BRACKET_PIECES = [
  ...["![", "![^", "[^", "[", "]", "^", "1", "a", " ", "](u)", "[]", "[1]", "![a](u)", "\n"],
  ...["[^1]", "![^1]", "[^a b]", "*", "`", "\\]", "<b>", "[^1]:", "\n\n", "\n> "],
];
const FOOTNOTES = ["", "\n\n[^1]: note", "\n\n[^1]: one\n[^a b]: two", "\n\n[1]: /u"];

Deno.test("footnote calls after image starts are found as published micromark finds them", () => {
  for (let seed = 1; seed <= 5000; seed++) {
    const next = seededRandom(seed);
    const pick = () => BRACKET_PIECES[Math.floor(next() * BRACKET_PIECES.length)];
    const text = Array.from({ length: 1 + Math.floor(next() * 32) }, pick).join("");
    assertPairsAsPublished(text + FOOTNOTES[seed % FOOTNOTES.length]);
  }
  // `]` that closes nothing: the published walk went back to the paragraph's start at each one
  // (0.18 s for 8,000 of them in one item; 15 ms now).
  for (const head of ["", "![", "![^1", "[a](u) ", "![a](u) ![", "![^1] "]) {
    for (const unit of ["]", "a]", "] ![^1]", "[a](u)]"]) {
      assertPairsAsPublished(head + unit.repeat(Math.floor(1500 / unit.length)) + FOOTNOTES[1]);
    }
  }
});

Deno.test("the published constructs stay as published", () => {
  const resolvers = (parser: ReturnType<typeof micromarkParser>) =>
    (parser.constructs.insideSpan.null ?? []).map((construct) => construct.resolveAll?.name);
  assert.deepEqual(resolvers(PUBLISHED), [
    "resolveAllStrikethrough",
    "resolveAllAttention",
    "resolveAllText",
  ]);
  assert.deepEqual(resolvers(micromarkParser()), [
    "pairStrikethroughSequences",
    "pairAttentionSequences",
    "resolveAllText",
  ]);
  const closing = (parser: ReturnType<typeof micromarkParser>) =>
    [parser.constructs.text[93]].flat().map((construct) => construct!.tokenize.name);
  assert.deepEqual(closing(PUBLISHED), ["tokenizeLabelEnd", "tokenizePotentialGfmFootnoteCall"]);
  assert.deepEqual(closing(micromarkParser()), ["tokenizeLabelEnd", "tokenizePotentialCall"]);
});

Deno.test("a document of many delimiter runs goes to micromark, not to marked", () => {
  // marked looks for each opener's closer through the rest of the text.
  const runs = (count: number) => "*a* ".repeat(count / 2);
  assert.ok(markedSyntax(runs(MARKED_DELIMITER_RUNS)));
  assert.equal(markedSyntax(runs(MARKED_DELIMITER_RUNS + 2)), undefined);
  assert.equal(markedSyntax("a*_".repeat(MARKED_DELIMITER_RUNS + 1)), undefined);
});
