/**
 * MDX syntax in Markdown over HTTP (Docusaurus reads `.md` files as MDX by default): ESM
 * `import`/`export` blocks at the top level and comments (`{/*` up to the star, slash and brace
 * that close them, over lines too) and expressions in prose (`{props.name}`) are JavaScript,
 * never sent, while the Markdown around them is translated.
 */
import assert from "node:assert/strict";
import { translateThrough, translateUpperCased } from "../../support/format_requests.ts";

const MARKDOWN = { format: "markdown", mode: "document" };

Deno.test("markdown: MDX import and export blocks at the top level are never sent", async () => {
  // They were paragraphs: sent as prose, an engine translating `from` or a name broke the
  // site's build.
  const item = "import Tabs from '@theme/Tabs';\nimport { TabItem } from '@theme/TabItem';\n\n" +
    "export const meta = { title: 'x' };\n\n# Title\n\nSome text.\n\n" +
    "import * as all from './all.js'\n\nexport { a, b };\n\nimport './styles.css';\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Title", "Some text."]);
  assert.equal(texts[0], item.replace("# Title\n\nSome text.", "# TITLE\n\nSOME TEXT."));
});

Deno.test("markdown: prose that starts with import or export, or ESM inside a list, is translated", async () => {
  // MDX reads ESM at the top level only, and `import the data` is no statement.
  const item = "import the data first.\n\nexport your settings.\n\n- item\n\n  import X from 'y'\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, [
    "import the data first.",
    "export your settings.",
    "item",
    "import X from 'y'",
  ]);
  assert.equal(texts[0], item.toUpperCase());
});

Deno.test("markdown: an MDX comment stays as written, the text around it translated", async () => {
  // `{/* … */}` was prose: sent, and written back as `{/\* … \*/}`, no comment to MDX.
  const item = "{/* A note for translators */}\n\nText {/* inline */} here.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Text <x1/> here."]);
  assert.equal(texts[0], "{/* A note for translators */}\n\nTEXT {/* inline */} HERE.\n");
  const { texts: echoed } = await translateThrough([item], MARKDOWN, (text) => text);
  assert.deepEqual(echoed, [item]);
});

Deno.test("markdown: an MDX expression in prose is kept as written, its sentence translated", async () => {
  // MDX evaluates `{…}` as JavaScript: a translated or escaped expression breaks the build.
  const item =
    "Hello {props.name}, welcome to {new Date().getFullYear()} and {count > 1 ? 's' : ''}.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Hello <x1/>, welcome to <x2/> and <x3/>."]);
  assert.equal(
    texts[0],
    "HELLO {props.name}, WELCOME TO {new Date().getFullYear()} AND {count > 1 ? 's' : ''}.\n",
  );
});

Deno.test("markdown: an MDX comment over several lines is kept whole, alone or in a paragraph", async () => {
  const item = "{/* A note\n   for translators */}\n\nText {/* inline\nand on */} here.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Text <x1/> here."]);
  assert.equal(
    texts[0],
    "{/* A note\n   for translators */}\n\nTEXT {/* inline\nand on */} HERE.\n",
  );
});

Deno.test("markdown: a paragraph that is one MDX comment is kept whole, stars and all", async () => {
  // `{/*note*/}` reads to CommonMark as `{/`, emphasis, `/}`: its words were sent.
  const item = "{/*hidden note*/}\n\n{/**\n * Docs for *this* block\n */}\n\nText.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Text."]);
  assert.equal(texts[0], item.replace("Text.", "TEXT."));
});

Deno.test("markdown: an MDX expression holding a code span is one placeholder", async () => {
  // CommonMark reads `` `Bearer ${token}` `` as a code span inside the braces: the engine got
  // `{<x1/>}`, braces it could drop or move apart from the expression they close.
  const item = "Send {`Bearer ${token}`} as the header, or {`${a}`+b} there.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Send <x1/> as the header, or <x2/> there."]);
  assert.equal(texts[0], "SEND {`Bearer ${token}`} AS THE HEADER, OR {`${a}`+b} THERE.\n");
});

Deno.test("markdown: an MDX comment in mid-paragraph holding emphasis is kept whole", async () => {
  // `{/*a*b*/}` reads to CommonMark as `{/`, emphasis, `/}`: the engine got its words.
  const item = "Text {/*a*b*/} and {/* a *b* c */} here, *really*.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Text <x1/> and <x2/> here, <x3>really</x3>."]);
  assert.equal(texts[0], "TEXT {/*a*b*/} AND {/* a *b* c */} HERE, *REALLY*.\n");
  const { texts: echoed } = await translateThrough([item], MARKDOWN, (text) => text);
  assert.deepEqual(echoed, [item]);
});

Deno.test("markdown: an MDX comment whose end falls inside a code span or emphasis is kept whole", async () => {
  // MDX reads the comment first, to its `*/}`; CommonMark paired its backtick or star with one
  // after it. The comment's words were sent and its `/*` written back `/\*`: no comment to MDX.
  const item = "Text {/* see `code */}` here, *really*.\n\nA {/* x *b */} c* d.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Text <x1/> here, <x2>really</x2>.", "A <x1/> d."]);
  assert.equal(texts[0], "TEXT {/* see `code */}` HERE, *REALLY*.\n\nA {/* x *b */} c* D.\n");
  const { texts: echoed } = await translateThrough([item], MARKDOWN, (text) => text);
  assert.deepEqual(echoed, [item]);
});

Deno.test("markdown: a JSX component's label is translated, its value never", async () => {
  // Docusaurus shows a `<TabItem>`'s `label` as the tab's title; its `value` is the key a
  // `groupId` syncs by. An HTML element's `label` (lower case) follows the HTML rules: shown, so
  // translated, on an `option`; data, so kept, on a `div`.
  const item = '<Tabs>\n<TabItem value="linux" label="Linux" default>\n\nInstall it.\n\n' +
    "</TabItem>\n<TabItem value=\"mac\" label='On a Mac'>Use brew.</TabItem>\n</Tabs>\n\n" +
    '<option label="Pick me">x</option>\n\n<div label="keep me">y</div>\n';
  const { texts } = await translateUpperCased([item], MARKDOWN);
  assert.equal(
    texts[0],
    item.replace('"Linux"', '"LINUX"').replace("'On a Mac'", "'ON A MAC'")
      .replace("Install it.", "INSTALL IT.").replace("Use brew.", "USE BREW.")
      .replace('"Pick me"', '"PICK ME"').replace(">x<", ">X<").replace(">y<", ">Y<"),
  );
});

Deno.test("markdown: a JSX tag with an expression among its props is kept whole", async () => {
  // CommonMark reads no HTML tag in `<img src={require('./a.png').default} />` (a quote in an
  // unquoted value): it was text, sent to the engine and written back `&lt;IMG SRC=…`.
  const item = "<img src={require('./img.png').default} alt=\"A diagram\" />\n\n" +
    "Click <Button onClick={() => alert('hi')} {...props}>the button</Button> now.\n\n" +
    "A <span style={{color: 'red', fontSize: 2}}>red</span> word.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, [
    "A diagram",
    "Click <x1/>the button<x2/> now.",
    // An element whose props hold no `>` pairs up as inline HTML does.
    "A <x1>red</x1> word.",
  ]);
  assert.equal(
    texts[0],
    item.replace("A diagram", "A DIAGRAM").replace("Click", "CLICK")
      .replace("the button", "THE BUTTON").replace(" now", " NOW").replace(">red<", ">RED<")
      .replace(" word", " WORD"),
  );
});
