/**
 * `<wbr>` inside a word over HTTP (`Super<wbr>Cali`, a long compound or product name): the engine
 * reads the whole word, not two halves split by a placeholder, and the `<wbr>` comes back,
 * never dropped: inside the word where the translation kept it, else at the end of the text it
 * stood in (before the same tag), where a break opportunity changes nothing.
 */
import assert from "node:assert/strict";
import { assertShapes, translateThrough } from "../../support/format_requests.ts";

Deno.test("html: a <wbr> inside a word is kept out of the engine's text and put back in the word it kept", async () => {
  const { texts, sent } = await translateThrough(
    ["<p>Try Super<wbr>Cali<wbr>Fragilistic <b>today</b>.</p>"],
    { mode: "webpage", format: "html" },
    (text) => text.replace("Try", "Probiere").replace("today", "heute"),
  );
  assert.deepEqual(sent, ["Try SuperCaliFragilistic <x1>today</x1>."]);
  assert.deepEqual(texts, ["<p>Probiere Super<wbr>Cali<wbr>Fragilistic <b>heute</b>.</p>"]);
});

Deno.test("html: a <wbr> in a word the engine changed comes back at the end of its run, before the same tag", async () => {
  const { texts, sent } = await translateThrough(
    ["<p>A long<wbr>word and <b>bold</b> text</p>", "<p>super<wbr>cali<WBR/>fragilistic</p>"],
    { mode: "webpage", format: "html" },
    (text) => text.replace("longword", "Langwort").replace("supercalifragilistic", "Wunder"),
  );
  assert.deepEqual(sent, ["A longword and <x1>bold</x1> text", "supercalifragilistic"]);
  assert.deepEqual(texts, [
    "<p>A Langwort and <wbr><b>bold</b> text</p>",
    "<p>Wunder<wbr><WBR/></p>",
  ]);
});

Deno.test("html: a <wbr> comes back in its word whatever case the engine wrote it in, and between words stays a placeholder", async () => {
  await assertShapes([
    {
      item: "<p>super<wbr>cali<WBR/>fragilistic</p>",
      expected: "<p>SUPER<wbr>CALI<WBR/>FRAGILISTIC</p>",
      sent: ["supercalifragilistic"],
    },
    {
      // Between words, or after a `/`, it is where the author allows a break: a placeholder.
      item: "<p>Path a/<wbr>b here</p>",
      expected: "<p>PATH A/<wbr>B HERE</p>",
      sent: ["Path a/<x1/>b here"],
    },
  ], { mode: "webpage", format: "html" });
});

Deno.test("html: an empty element inside a word (Word's and Google Docs' exports) is kept out of the engine's text, as a <wbr> is", async () => {
  const { texts, sent } = await translateThrough(
    [
      '<p>Hel<span></span>lo wor<span class="x"></span>ld <b>today</b>.</p>',
      "<p>Aut<o:p></o:p>omatic<a id=_Toc1></a>ally saved, <span>an</span><i></i> text.</p>",
    ],
    { mode: "webpage", format: "html" },
    (text) =>
      text.replace("Hello world", "Hallo Welt").replace("today", "heute")
        .replace("Automatically saved", "Automatically gespeichert"),
  );
  assert.deepEqual(sent, [
    "Hello world <x1>today</x1>.",
    // Between a word and punctuation or a space it marks no word: a placeholder, as before.
    "Automatically saved, <x1>an</x1><x2></x2> text.",
  ]);
  assert.deepEqual(texts, [
    // Words the engine changed: the elements come back before the same tag, in order.
    '<p>Hallo Welt <span></span><span class="x"></span><b>heute</b>.</p>',
    "<p>Aut<o:p></o:p>omatic<a id=_Toc1></a>ally gespeichert, <span>an</span><i></i> text.</p>",
  ]);
});
