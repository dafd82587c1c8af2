/**
 * Ruby annotations in `format: "html"`: `rt` and `rp` hold the base text's reading (or the
 * parentheses around it), which means nothing translated; the base text is part of its sentence.
 */
import assert from "node:assert/strict";
import { htmlFormat } from "../../../translation/formats/html.ts";
import { markdownFormat } from "../../../translation/formats/markdown.ts";
import { scannedTokens } from "../../../translation/formats/html_scanner.ts";
import { parse5Tokens } from "../../../translation/formats/html_tokenizer.ts";
import { translateItem, upperCase } from "../../support/format_engines.ts";

Deno.test("html: ruby readings (rt, rp) stay byte for byte inside the sentence, the base text is translated with it", async () => {
  const cases: [string, string[], string][] = [
    [
      "<p>The word <ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby> means Chinese characters.</p>",
      ["The word <x1>漢<x2/>字<x3/></x1> means Chinese characters."],
      "<p>THE WORD <ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby> MEANS CHINESE CHARACTERS.</p>",
    ],
    [
      '<p><ruby>明日 <rp>(</rp><rt lang="ja-Latn">Ashita</rt><rp>)</rp></ruby> is tomorrow.</p>',
      // Readings next to each other are one placeholder.
      ["<x1>明日 <x2/></x1> is tomorrow."],
      '<p><ruby>明日 <rp>(</rp><rt lang="ja-Latn">Ashita</rt><rp>)</rp></ruby> IS TOMORROW.</p>',
    ],
    [
      // End tags left out, as HTML allows: the next rt or rp, or the ruby's end, closes one.
      "<p>Read <ruby>漢<rt>kan<rp>)</rp>字<rt>ji</ruby> aloud.</p>",
      ["Read <x1>漢<x2/>字<x3/></x1> aloud."],
      "<p>READ <ruby>漢<rt>kan<rp>)</rp>字<rt>ji</ruby> ALOUD.</p>",
    ],
    [
      // An annotation container (rtc) is a reading too; a base in rb is text.
      "<p>A <ruby><rb>東</rb><rb>京</rb><rtc><rt>tō</rt><rt>kyō</rt></rtc></ruby> trip.</p>",
      ["A <x1><x2>東</x2><x3>京</x3><x4/></x1> trip."],
      "<p>A <ruby><rb>東</rb><rb>京</rb><rtc><rt>tō</rt><rt>kyō</rt></rtc></ruby> TRIP.</p>",
    ],
  ];
  for (const [html, sent, expected] of cases) {
    const result = await translateItem(htmlFormat, html, upperCase);
    assert.deepEqual(result.sent, sent, html);
    assert.equal(result.text, expected, html);
    assert.deepEqual(scannedTokens(html), parse5Tokens(html), html);
  }
});

Deno.test("markdown: ruby readings in inline HTML stay byte for byte, as in HTML", async () => {
  const markdown =
    "The word <ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby> means *Chinese* characters.\n";
  const result = await translateItem(markdownFormat, markdown, upperCase);
  assert.deepEqual(result.sent, [
    "The word <x1>漢<x2/>字<x3/></x1> means <x4>Chinese</x4> characters.",
  ]);
  assert.equal(
    result.text,
    "THE WORD <ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby> MEANS *CHINESE* CHARACTERS.\n",
  );
});
