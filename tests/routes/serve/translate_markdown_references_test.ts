/**
 * `&lt;`, `&gt;` and `&nbsp;` in Markdown text over HTTP, as in HTML
 * (translate_html_references_test.ts): the engine reads the characters (a sentence about `<div>`
 * tags, `10 km` held together), not placeholders that split the sentence, and what comes back
 * keeps the author's references; a `<` of a translation never starts raw HTML or an autolink.
 * The stand-in upper-cases.
 */
import assert from "node:assert/strict";
import { assertShapes, translateThrough } from "../../support/format_requests.ts";

Deno.test("markdown: &lt;, &gt; and a &nbsp; inside a run reach the engine as their characters", async () => {
  await assertShapes([
    {
      item: "Use a &lt;div&gt; tag, 10&nbsp;km &amp; more.\n",
      expected: "USE A &lt;DIV&gt; TAG, 10&nbsp;KM &amp; MORE.\n",
      sent: ["Use a <div> tag, 10\u00a0km & more."],
    },
    {
      item: "# The &lt;b&gt; tag\n\n| a | b &lt; c |\n|---|---|\n| *x &gt; y* | z |\n",
      expected: "# THE &lt;B&gt; TAG\n\n| A | B &lt; C |\n|---|---|\n| *X &gt; Y* | Z |\n",
      sent: ["The <b> tag", "a", "b < c", "<x1>x > y</x1>", "z"],
    },
    {
      // Outer no-break spaces stay outside the sentence, as before.
      item: "&nbsp;Hello world&nbsp;\n\nBye &nbsp;now\n",
      expected: "&nbsp;HELLO WORLD&nbsp;\n\nBYE &nbsp;NOW\n",
      sent: ["Hello world", "Bye <x1/>now"],
    },
    {
      // Read as characters, this would forge the placeholder token `<x1/>`: kept as atoms.
      item: "Type &lt;x1/&gt; here\n",
      expected: "TYPE &lt;X1/&gt; HERE\n",
      sent: ["Type <x1/>x1/<x2/> here"],
    },
  ], { mode: "webpage", format: "markdown" });
});

Deno.test("markdown: a < the engine writes never starts raw HTML or an autolink, even before markup", async () => {
  const { texts } = await translateThrough(
    [
      "Small is less than big.\n",
      // The block writes `<` as itself too, so a changed `<` is not respelled `&lt;`: right
      // before the address, a raw one would make an autolink of it.
      "a < b, mail &lt;ana@example.com&gt; now.\n",
    ],
    { mode: "webpage", format: "markdown" },
    (text) => text.replace("less than big", "<big>").replace("mail", "write"),
  );
  assert.deepEqual(texts, [
    "Small is &lt;big>.\n",
    "a < b, write &lt;ana@example.com&gt; now.\n",
  ]);
});
