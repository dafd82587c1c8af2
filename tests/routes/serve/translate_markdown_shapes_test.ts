/**
 * Markdown shapes over HTTP: each item goes through the real service with an engine that
 * upper-cases what it is given, so the whole output is compared byte for byte and every text
 * that reached the engine is seen.
 */
import assert from "node:assert/strict";
import { upperCase } from "../../support/format_engines.ts";
import { translateThrough, translateUpperCased } from "../../support/format_requests.ts";

const MARKDOWN = { format: "markdown", mode: "document" };

Deno.test("markdown with a byte order mark keeps its front matter, headings and BOM", async () => {
  // Windows editors save one: the `#` line after it was read as a paragraph ('# Title' sent
  // and escaped back as '\# TITLE') and the front matter's keys were translated.
  const item = "\uFEFF---\ntitle: Release notes\n---\n\n# Getting started\n\nRead *this* first.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Getting started", "Read <x1>this</x1> first."]);
  assert.equal(
    texts[0],
    "\uFEFF---\ntitle: Release notes\n---\n\n# GETTING STARTED\n\nREAD *THIS* FIRST.\n",
  );
  const heading = await translateUpperCased(["\uFEFF# Title\n\nText.\n"], MARKDOWN);
  assert.deepEqual(heading.sent, ["Title", "Text."]);
  assert.equal(heading.texts[0], "\uFEFF# TITLE\n\nTEXT.\n");
});

Deno.test("markdown: a paragraph with a | that is no table escapes a translation's leading 10. as a paragraph's", async () => {
  // A `|` on the line made the paragraph read as a table's first cell, where `10.` starts no
  // list: 'May 10 | June 11 …' came back as '10. Mai \| …', an ordered list from 10.
  const item = "May 10 | June 11 are holidays.\n\n- May 10 | June 11 too.\n";
  const german = (text: string) => text.replace(/^May 10/, "10. Mai");
  const { texts } = await translateThrough([item], MARKDOWN, german);
  assert.equal(texts[0], "10\\. Mai | June 11 are holidays.\n\n- 10\\. Mai | June 11 too.\n");
  // A row's first cell with no | before it is still a cell: its | is escaped, its 10. is not.
  const table = "May 10 | June 11\n--- | ---\nMay 10 | x\n";
  const cells = await translateThrough([table], MARKDOWN, (text) => german(text) + " | y");
  assert.equal(
    cells.texts[0],
    "10. Mai \\| y | June 11 \\| y\n--- | ---\n10. Mai \\| y | x \\| y\n",
  );
});

Deno.test("markdown: an HTML block keeps its block quote's > out of the text and an engine's line breaks out of the block", async () => {
  // The > of the lines after the first was text of the HTML block's sentence: the engine was
  // given '> over lines.' and moved it; and an engine's blank line inside a <div> ended the
  // HTML block, the rest read as Markdown (in a list item, a line break left the item).
  const quoted = "> <p>Some text here\n> over lines.</p>\n>\n> <div>\n> One more\n> </div>\n";
  const { texts, sent } = await translateUpperCased([quoted], MARKDOWN);
  assert.deepEqual(sent, ["Some text here<x1/>over lines.", "One more"]);
  assert.equal(
    texts[0],
    "> <p>SOME TEXT HERE\n> OVER LINES.</p>\n>\n> <div>\n> ONE MORE\n> </div>\n",
  );
  // The same inside a video's fallback, cut apart from the sentence around the video.
  const media = "> <p>Watch <video>Old\n> browser here</video> now.</p>\n";
  const fallback = await translateUpperCased([media], MARKDOWN);
  assert.deepEqual(fallback.sent, ["Old<x1/>browser here", "Watch <x1/> now."]);
  assert.equal(fallback.texts[0], "> <p>WATCH <video>OLD\n> BROWSER HERE</video> NOW.</p>\n");
  const blocks = "<div>\nSome text here.\n</div>\n\n- <p>Item text.</p>\n\nAfter *this*.\n";
  const broken = await translateThrough(
    [blocks],
    MARKDOWN,
    (text) => upperCase(text).replaceAll(" ", "\n\n"),
  );
  assert.equal(
    broken.texts[0],
    // At the top level a blank line is one line break; in the item a line break is a space.
    "<div>\nSOME\nTEXT\nHERE.\n</div>\n\n- <p>ITEM TEXT.</p>\n\nAFTER *THIS*.\n",
  );
});

Deno.test("markdown keeps a link's text that is its address, as the HTML format does", async () => {
  // The text of [https://x.org/docs](https://x.org/docs) went to the engine as words.
  const item = 'See [https://x.org/docs](https://x.org/docs "The docs") or ' +
    "[www.x.org](http://www.x.org) or [me@x.org](mailto:me@x.org) for *the guide* " +
    "([**https://x.org/a**](https://x.org/a)).\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, [
    "The docs",
    "See <x1><x2/></x1> or <x3><x4/></x3> or <x5><x6/></x5> for <x7>the guide</x7> " +
    "(<x8><x9><x10/></x9></x8>).",
  ]);
  assert.equal(
    texts[0],
    'SEE [https://x.org/docs](https://x.org/docs "THE DOCS") OR ' +
      "[www.x.org](http://www.x.org) OR [me@x.org](mailto:me@x.org) FOR *THE GUIDE* " +
      "([**https://x.org/a**](https://x.org/a)).\n",
  );
});

Deno.test("markdown: a line break an engine moves to a block's start or end, or next to another, adds no line", async () => {
  // Put last, the break under a setext heading's text ended the heading ('Title two\n\n===' is
  // a paragraph and a paragraph of '='), in a list item it made the list loose, in a paragraph
  // it added a blank line; two put side by side split a paragraph in two.
  const item = "Title one\ntitle two\n===\n\n- item one\n  more words\n- item two\n\n" +
    "> quote one  \n> quote two\n\nLine one\nline two\nline three\n";
  const moved = (text: string) => {
    const breaks = text.match(/<x\d+\/>/g) ?? [];
    const words = upperCase(text.replace(/<x\d+\/>/g, " ").replace(/ +/g, " "));
    if (breaks.length === 2) {
      return `${words.replace(/ LINE THREE$/, "")}${breaks.join("")}LINE THREE`;
    }
    return breaks.length === 1 && /ONE/.test(words) && !/QUOTE/.test(words)
      ? `${words}${breaks[0]}`
      : `${breaks.join("")}${words}`;
  };
  const { texts, sent } = await translateThrough([item], MARKDOWN, moved);
  assert.deepEqual(sent, [
    "Title one<x1/>title two",
    "item one<x1/>more words",
    "item two",
    "quote one<x1/>quote two",
    "Line one<x1/>line two<x2/>line three",
  ]);
  assert.equal(
    texts[0],
    "TITLE ONE TITLE TWO\n===\n\n- ITEM ONE MORE WORDS\n- ITEM TWO\n\n" +
      "> QUOTE ONE QUOTE TWO\n\nLINE ONE LINE TWO\nLINE THREE\n",
  );
});

Deno.test("markdown: an HTML block's CRLF line break inside a translated sentence stays CRLF", async () => {
  // The rule that folds an engine's blank lines into one line break read CRLF as CR and LF, two
  // breaks, and wrote back the CR alone: '<div>\r\nab\r\ncd</div>' came back with 'AB\rCD'.
  const item = "<div>\r\nab\r\ncd</div>\r\n\r\n<p>m\r\nl</p>\r\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["ab\r\ncd", "m\r\nl"]);
  assert.equal(texts[0], "<div>\r\nAB\r\nCD</div>\r\n\r\n<p>M\r\nL</p>\r\n");
  // An engine's blank line in CRLF is still one line break.
  const blank = await translateThrough(
    [item],
    MARKDOWN,
    (text) => text.replace("\r\n", "\r\n\r\n"),
  );
  assert.equal(blank.texts[0], "<div>\r\nab\r\ncd</div>\r\n\r\n<p>m\r\nl</p>\r\n");
});

Deno.test("markdown: punctuation a translation puts right after a bare address stays out of it", async () => {
  // The backslash escaping a `]` or `*` of the engine's answer joined the address before it
  // (GFM reads '\' as part of an autolink literal): 'http://example.com/a]' became a link to
  // 'http://example.com/a\'.
  const items = [
    "See http://example.com/a] now.",
    "Go to www.example.com* today, (https://x.org/b_ ok)",
    "See http://e.org/a]. And http://e.org/b](c",
  ];
  for (const mode of ["document", "message"]) {
    const { texts } = await translateUpperCased(items, { format: "markdown", mode });
    assert.deepEqual(texts, [
      "SEE http://example.com/a] NOW.",
      "GO TO www.example.com* TODAY, (https://x.org/b_ OK)",
      "SEE http://e.org/a]. AND http://e.org/b](C",
    ], mode);
  }
  // Where the address is not bare, the escape stays: nothing joins it.
  const { texts } = await translateUpperCased(
    ["See <http://e.org>] and [l](http://e.org)*"],
    MARKDOWN,
  );
  assert.deepEqual(texts, ["SEE <http://e.org>\\] AND [L](http://e.org)\\*"]);
});
