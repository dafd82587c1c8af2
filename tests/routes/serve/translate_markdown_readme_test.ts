/**
 * A README of the shapes real ones have (badges, `<details>` with Markdown inside, reference
 * links and definitions, footnotes of two paragraphs, nested lists with code, tables with pipes
 * in code, task lists, setext headings, hard breaks, front matter, comments, references) over
 * HTTP: an engine that echoes gives the file back byte for byte, one that upper-cases keeps its
 * skeleton (read by the structure oracle, not by the service's code), and every word a reader
 * sees reaches the engine exactly once.
 */
import assert from "node:assert/strict";
import { structureOf, wordsOf } from "../../support/document_structure.ts";
import { translateThrough, translateUpperCased } from "../../support/format_requests.ts";

const MARKDOWN = { format: "markdown", mode: "document" } as const;

const README = [
  "---",
  "title: My Project",
  "---",
  "",
  "# My Project [![CI](https://img.shields.io/badge/ci-passing-green.svg)](https://ci.x.org)",
  "",
  "A *fast* tool for [parsing][docs] things.[^1] See <https://example.com> &copy; 2024.",
  "",
  "<details>",
  "<summary>Click to expand</summary>",
  "",
  "Hidden **Markdown** text &amp; more.",
  "",
  "</details>",
  "",
  "<!-- a comment that is not text -->",
  "",
  "Setext Title",
  "============",
  "",
  "Line with hard break  ",
  "next line with backslash\\",
  "third line :rocket:.",
  "",
  "- [ ] Task one",
  "- [x] Task *two*",
  "  1. Nested item",
  "",
  "     ```js",
  "     const x = 1;",
  "     ```",
  "  2. Another item",
  "",
  "| Name | Code |",
  "|------|------|",
  "| Pipe | `a \\| b` |",
  "| Escaped | x \\| y &#124; z |",
  "",
  "[^1]: First paragraph of the note.",
  "",
  "    Second paragraph of the note.",
  "",
  '[docs]: https://example.com/docs "Docs title"',
  "",
].join("\n");

Deno.test("markdown: a README comes back byte for byte through an engine that echoes", async () => {
  const { texts } = await translateThrough(
    [README, README.replaceAll("\n", "\r\n")],
    MARKDOWN,
    (text) => text,
  );
  assert.equal(texts[0], README);
  assert.equal(texts[1], README.replaceAll("\n", "\r\n"));
});

Deno.test("markdown: a README keeps its skeleton and sends every visible word once", async () => {
  const { texts, sent } = await translateUpperCased([README], MARKDOWN);
  const source = structureOf({ text: README, ...MARKDOWN });
  const output = structureOf({ text: texts[0], ...MARKDOWN });
  assert.deepEqual(output.skeleton, source.skeleton);
  const words = sent.flatMap((text) => wordsOf(text.replace(/<\/?x\d+\/?>/g, " ")));
  // The oracle reads an image's alt as no word; the service translates it.
  assert.deepEqual(words.sort(), [...source.words, "CI"].sort());
  assert.ok(texts[0].includes("&copy; 2024") && texts[0].includes("&amp; MORE"), texts[0]);
  assert.ok(texts[0].includes("X \\| Y &#124; Z |"), texts[0]);
});
