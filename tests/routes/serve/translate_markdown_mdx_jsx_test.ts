/**
 * MDX's JSX over HTTP where CommonMark reads it otherwise: a tag over several lines (its `>`
 * alone on a line is a block quote to CommonMark), an expression holding `>` (CommonMark ends
 * the tag there), and content indented under a component (MDX has no indented code). What
 * makes an item MDX is in the README's Formats section; plain Markdown reads as before.
 */
import assert from "node:assert/strict";
import { translateThrough, translateUpperCased } from "../../support/format_requests.ts";

const MARKDOWN = { format: "markdown", mode: "document" };

Deno.test("markdown: a JSX tag over several lines is kept as written, the text in it translated", async () => {
  // Each line of the tag was a text run of its own and its `>` line a block quote: written back
  // `&lt;BUTTON\n  ONCLICK=…`.
  const inline = "Click\n<Button\n  onClick={() => go()}\n>\n  Go now\n</Button>\nplease.\n";
  const block = '<Button\n  onClick={() => go()}\n  label="Start"\n>\n  Go now\n</Button>\n';
  const { texts, sent } = await translateUpperCased([inline, block], MARKDOWN);
  assert.equal(
    texts[0],
    inline.replace("Click", "CLICK").replace("Go now", "GO NOW")
      .replace("please", "PLEASE"),
  );
  // A component's label is its title, translated (README), its expressions never.
  assert.equal(texts[1], block.replace("Go now", "GO NOW").replace('"Start"', '"START"'));
  assert.ok(sent.every((text) => !text.includes("onClick") && !text.includes("=>")), `${sent}`);
  assert.ok(sent.some((text) => text.includes("Click") && text.includes("please")), `${sent}`);
  const { texts: echoed } = await translateThrough([inline, block], MARKDOWN, (text) => text);
  assert.deepEqual(echoed, [inline, block]);
});

Deno.test("markdown: a component's props over several lines keep their label translated", async () => {
  const item = '<Tabs>\n<TabItem\n  value="mac"\n  label="On a Mac"\n>\n\nUse brew.\n\n' +
    "</TabItem>\n</Tabs>\n";
  const { texts } = await translateUpperCased([item], MARKDOWN);
  assert.equal(texts[0], item.replace("On a Mac", "ON A MAC").replace("Use brew.", "USE BREW."));
});

Deno.test("markdown: an expression holding > is never sent, in a tag's props or in text", async () => {
  // CommonMark ended the tag at `{a >`: `b}>this` was sent and came back `{a > B}`.
  const item = "<Foo when={a > b}>this</Foo>\n\nText {a > b} and {a < b} here.\n\n" +
    "Say <Show if={n >= 2 && m > 1}>hello</Show> twice.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.equal(
    texts[0],
    "<Foo when={a > b}>THIS</Foo>\n\nTEXT {a > b} AND {a < b} HERE.\n\n" +
      "SAY <Show if={n >= 2 && m > 1}>HELLO</Show> TWICE.\n",
  );
  assert.ok(sent.every((text) => !/[ab]\s*[<>]|n >=/.test(text)), `${sent}`);
});

Deno.test("markdown: text indented under a JSX component in MDX is translated, not read as code", async () => {
  // Docusaurus pages indent a tab's content; MDX has no indented code, so it was left English.
  const item = "import Tabs from '@theme/Tabs';\n\n<Tabs>\n  <TabItem value=\"a\">\n\n" +
    "    Some text here.\n\n    More *text*.\n\n  </TabItem>\n</Tabs>\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.equal(
    texts[0],
    item.replace("Some text here.", "SOME TEXT HERE.").replace("More *text*.", "MORE *TEXT*."),
  );
  assert.deepEqual(sent, ["Some text here.", "More <x1>text</x1>."]);
  const bare = "<TabItem>\n\n    Some text\n\n</TabItem>\n";
  const { texts: bareTexts } = await translateUpperCased([bare], MARKDOWN);
  assert.equal(bareTexts[0], bare.replace("Some text", "SOME TEXT"));
});

Deno.test("markdown: plain Markdown keeps its indented code, code that imports included", async () => {
  // An item is MDX by ESM at the top level or JSX outside code; `import` in a fence or in
  // indented code, `List<String>` in prose and a brace in a quoted value (Vue's
  // `:class="{ a: b }"`) are none of these.
  const item =
    "Use it:\n\n```js\nimport x from 'y';\n```\n\n    import a from 'b';\n    run()\n\n" +
    'A List<String> here, <span class="{ a: b }">a tip</span>.\n\n    indented code\n';
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Use it:", "A List<x1/> here, <x2>a tip</x2>."]);
  assert.equal(
    texts[0],
    item.replace("Use it:", "USE IT:").replace("A List", "A LIST").replace(" here", " HERE")
      .replace("a tip", "A TIP"),
  );
});

Deno.test("markdown: a JSX fragment's tags stay as written, its text translated", async () => {
  // `<>` and `</>` are no HTML: sent as text, `</>` came back `&lt;/>`, no closing tag to MDX.
  const item = "import X from 'y';\n\n<>\n  Some text in a fragment.\n</>\n\nA <>short</> one.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.equal(
    texts[0],
    item.replace("Some text in a fragment.", "SOME TEXT IN A FRAGMENT.")
      .replace("A <>short</> one.", "A <>SHORT</> ONE."),
  );
  assert.ok(sent.every((text) => !text.includes("<>") && !text.includes("</>")), `${sent}`);
});

Deno.test("markdown: an MDX expression over several lines is never sent", async () => {
  // It was prose: sent, and came back `ITEMS.MAP((X) => X.NAME)`, no longer JavaScript.
  const item =
    "import X from 'y';\n\n{\n  items.map((x) => x.name)\n}\n\nSee {\n  props.a\n} here.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.equal(texts[0], item.replace("See", "SEE").replace(" here.", " HERE."));
  assert.deepEqual(sent, ["See <x1/> here."]);
});

Deno.test("markdown: an MDX export reads on over a blank line until its brackets close", async () => {
  // MDX reads the object whole; after its blank line `b: 2,` was a paragraph, sent.
  const item = "export const meta = {\n  a: 'x',\n\n  b: 'y',\n};\n\n# Title\n\n" +
    "export function Hi() {\n  return <b>hi</b>;\n\n}\n\nText.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Title", "Text."]);
  assert.equal(texts[0], item.replace("# Title", "# TITLE").replace("Text.", "TEXT."));
});
