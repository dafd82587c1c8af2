/**
 * `&lt;`, `&gt;` and `&nbsp;` in an HTML page over HTTP: the engine reads the characters (a
 * sentence about `<div>` tags, `10 km` held together), not placeholders that split the sentence,
 * and what comes back is escaped for its place: no `<` of a translation is ever raw in a text
 * node. The stand-in upper-cases.
 */
import assert from "node:assert/strict";
import { assertShapes, translateThrough } from "../../support/format_requests.ts";

Deno.test("html: &lt;, &gt; and a &nbsp; inside a run reach the engine as their characters", async () => {
  await assertShapes([
    {
      item: "<p>Use a &lt;div&gt; tag, 10&nbsp;km &amp; more.</p>",
      expected: "<p>USE A &lt;DIV&gt; TAG, 10&nbsp;KM &amp; MORE.</p>",
      sent: ["Use a <div> tag, 10\u00a0km & more."],
    },
    {
      item: '<img alt="a &lt; b &gt; c">',
      expected: '<img alt="A &lt; B &gt; C">',
      sent: ["a < b > c"],
    },
    {
      // Outer no-break spaces stay outside the sentence, as before.
      item: "<p>&nbsp;Hello world&nbsp;</p><p>Bye &nbsp;now</p>",
      expected: "<p>&nbsp;HELLO WORLD&nbsp;</p><p>BYE &nbsp;NOW</p>",
      sent: ["Hello world", "Bye <x1/>now"],
    },
    {
      // Read as characters, this would forge the placeholder token `<x1/>`: kept as atoms.
      item: "<p>Type &lt;x1/&gt; here</p>",
      expected: "<p>TYPE &lt;X1/&gt; HERE</p>",
      sent: ["Type <x1/>x1/<x2/> here"],
    },
  ], { mode: "webpage", format: "html" });
});

Deno.test("html: a < the engine writes into a text node is escaped, wherever it stands", async () => {
  const { texts } = await translateThrough(
    ["<p>Small is less than big.</p>"],
    { mode: "webpage", format: "html" },
    (text) => text.replace("less than", "<"),
  );
  assert.deepEqual(texts, ["<p>Small is &lt; big.</p>"]);
});
