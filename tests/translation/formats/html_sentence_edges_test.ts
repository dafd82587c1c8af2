/**
 * What one HTML sentence segment holds at its edges and inside: a reference for white space at
 * its start or end stays outside it, as the white space itself does.
 */
import assert from "node:assert/strict";
import { htmlFormat } from "../../../translation/formats/html.ts";
import { translateItem, upperCase } from "../../support/format_engines.ts";

Deno.test("html: a reference for white space at a sentence's edge stays outside the segment", async () => {
  const html = "<p>&#160;Hello world&nbsp;</p><p>&nbsp; <b>Bold</b> &#x20;move&#32;</p>" +
    "<p>A&nbsp;B</p>";
  const result = await translateItem(htmlFormat, html, upperCase);
  assert.deepEqual(result.sent, ["Hello world", "<x1>Bold</x1> <x2/>move", "A<x1/>B"]);
  assert.equal(
    result.text,
    "<p>&#160;HELLO WORLD&nbsp;</p><p>&nbsp; <b>BOLD</b> &#x20;MOVE&#32;</p><p>A&nbsp;B</p>",
  );
});
