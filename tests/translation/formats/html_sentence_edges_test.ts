/**
 * What one HTML sentence segment holds at its edges and inside: a reference for white space at
 * its start or end stays outside it, as the white space itself does; a refused inline element
 * with `translate="yes"` inside stays inside, its refused parts as placeholders.
 */
import assert from "node:assert/strict";
import { htmlFormat } from "../../../translation/formats/html.ts";
import { translateItem, upperCase } from "../../support/format_engines.ts";

Deno.test("html: a reference for white space at a sentence's edge stays outside the segment", async () => {
  const html = "<p>&#160;Hello world&nbsp;</p><p>&nbsp; <b>Bold</b> &#x20;move&#32;</p>" +
    "<p>A&nbsp;B</p>";
  const result = await translateItem(htmlFormat, html, upperCase);
  // Between two letters, the no-break space is text (it holds them together).
  assert.deepEqual(result.sent, ["Hello world", "<x1>Bold</x1> <x2/>move", "A\u00a0B"]);
  assert.equal(
    result.text,
    "<p>&#160;HELLO WORLD&nbsp;</p><p>&nbsp; <b>BOLD</b> &#x20;MOVE&#32;</p><p>A&nbsp;B</p>",
  );
});

Deno.test("html: a refused inline element with translate=yes inside stays in its sentence, its refused parts kept", async () => {
  const html =
    '<p>Use <span translate="no">Brand <b translate="yes">Pro</b> <i>X</i></span> today.</p>' +
    '<p>Keep <span class="notranslate">a <b translate="yes">b</b></span>.</p>';
  const result = await translateItem(htmlFormat, html, upperCase);
  assert.deepEqual(result.sent, [
    "Use <x1/><x2>Pro</x2><x3/> today.",
    "Keep <x1/><x2>b</x2><x3/>.",
  ]);
  assert.equal(
    result.text,
    '<p>USE <span translate="no">Brand <b translate="yes">PRO</b> <i>X</i></span> TODAY.</p>' +
      '<p>KEEP <span class="notranslate">a <b translate="yes">B</b></span>.</p>',
  );
});
