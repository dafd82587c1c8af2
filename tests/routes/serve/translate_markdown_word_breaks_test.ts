/**
 * `<wbr>` inside a word of Markdown text over HTTP, as in HTML
 * (translate_html_word_breaks_test.ts): the engine reads the whole word, and the `<wbr>` comes
 * back inside the word where the translation kept it, else at the end of its run, never
 * dropped.
 */
import assert from "node:assert/strict";
import { assertShapes, translateThrough } from "../../support/format_requests.ts";

Deno.test("markdown: a <wbr> inside a word is kept out of the engine's text and put back in the word it kept", async () => {
  const { texts, sent } = await translateThrough(
    ["Try Super<wbr>Cali<wbr>Fragilistic **today**.\n"],
    { mode: "webpage", format: "markdown" },
    (text) => text.replace("Try", "Probiere").replace("today", "heute"),
  );
  assert.deepEqual(sent, ["Try SuperCaliFragilistic <x1>today</x1>."]);
  assert.deepEqual(texts, ["Probiere Super<wbr>Cali<wbr>Fragilistic **heute**.\n"]);
});

Deno.test("markdown: a <wbr> in a word the engine changed comes back before the same markup; between words it stays a placeholder", async () => {
  const { texts, sent } = await translateThrough(
    ["# A long<wbr>word and *bold* text\n\nPath a/<wbr>b here\n"],
    { mode: "webpage", format: "markdown" },
    (text) => text.replace("longword", "Langwort"),
  );
  assert.deepEqual(sent, ["A longword and <x1>bold</x1> text", "Path a/<x1/>b here"]);
  assert.deepEqual(texts, ["# A Langwort and <wbr>*bold* text\n\nPath a/<wbr>b here\n"]);
  await assertShapes([{
    item: "super<wbr>cali<WBR/>fragilistic\n",
    expected: "SUPER<wbr>CALI<WBR/>FRAGILISTIC\n",
    sent: ["supercalifragilistic"],
  }], { mode: "webpage", format: "markdown" });
});
