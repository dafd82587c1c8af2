/**
 * What a Markdown block's segment holds at its edges: a reference for white space at its start
 * or end stays outside it, as the white space itself does.
 */
import assert from "node:assert/strict";
import { markdownFormat } from "../../../translation/formats/markdown.ts";
import { translateItem, upperCase } from "../../support/format_engines.ts";

Deno.test("markdown: a reference for white space at a block's edge stays outside its segment", async () => {
  const text = "&#160;Hello world&nbsp;\n\n# &nbsp;Title\n\n- A&nbsp;B\n";
  const result = await translateItem(markdownFormat, text, upperCase);
  // Between two letters, the no-break space is text (it holds them together), as in HTML.
  assert.deepEqual(result.sent, ["Hello world", "Title", "A\u00a0B"]);
  assert.equal(result.text, "&#160;HELLO WORLD&nbsp;\n\n# &nbsp;TITLE\n\n- A&nbsp;B\n");
});

Deno.test("markdown: a directive's or admonition's title is read as inline text, its emphasis kept as markup", async () => {
  const text = ":::tip A *b* `c`\nbody\n:::\n\n:::note[Read *this*]\nmore\n:::\n\n" +
    '!!! warning "Mind *the* gap"\n\n    Body\n';
  const result = await translateItem(markdownFormat, text, upperCase);
  assert.deepEqual(result.sent, [
    "A <x1>b</x1> <x2/>",
    "body",
    "Read <x1>this</x1>",
    "more",
    "Mind <x1>the</x1> gap",
    "Body",
  ]);
  assert.equal(
    result.text,
    ":::tip A *B* `c`\nBODY\n:::\n\n:::note[READ *THIS*]\nMORE\n:::\n\n" +
      '!!! warning "MIND *THE* GAP"\n\n    BODY\n',
  );
});
