import assert from "node:assert/strict";
import { markdownFormat } from "../../../translation/formats/markdown.ts";
import { dropPlaceholders, translateItem, upperCase } from "../../support/format_engines.ts";
import { loadCorpus, structureOf } from "../../support/document_structure.ts";

const README = `---
title: Guide
tags: [a, b]
---

# Getting *started* ##

Install the tool with \`npm i tolk\` and read [the docs](https://x.org/docs "Docs")
or see <https://x.org> and www.example.com.

> A quoted line
> that continues here.

- [ ] Task one
- [x] Task **two**
  continued

1. First
2) Second

| Name | Value |
|:-----|------:|
| Alpha | One |

\`\`\`js
const a = "do not translate";
\`\`\`

    indented code

Math $x^2$ inline and a footnote[^1].

$$
E = mc^2
$$

[^1]: The note text.

[ref]: https://x.org/ref "Ref title"
[logo]: logo.png

<div class="box">An <b>HTML</b> block</div>

Setext heading
==============

***

![A cat](cat.png "Cat") and ![][logo] and _under_ \\*not em\\* &amp; done
`;

Deno.test("markdown round-trips a README byte for byte through an identity engine", async () => {
  const result = await translateItem(markdownFormat, README, (text) => text);
  assert.equal(result.text, README);
  assert.equal(result.fallbacks, 0);
});

Deno.test("markdown sends prose only, with markers as placeholders", async () => {
  const result = await translateItem(markdownFormat, README, upperCase);
  assert.deepEqual(result.sent, [
    "Getting <x1>started</x1>",
    "Docs",
    "Install the tool with <x1/> and read <x2>the docs</x2><x3/>or see <x4/> and <x5/>.",
    "A quoted line<x1/>that continues here.",
    "Task one",
    "Task <x1>two</x1><x2/>continued",
    "First",
    "Second",
    "Name",
    "Value",
    "Alpha",
    "One",
    "Math <x1/> inline and a footnote<x2/>.",
    "The note text.",
    "An <x1>HTML</x1> block",
    "Setext heading",
    "Cat",
    "<x1>A cat</x1> and <x2/> and <x3>under</x3> <x4/>not em<x5/> & done",
  ]);
  for (
    const kept of [
      "title: Guide",
      'const a = "do not translate";',
      "    indented code",
      "E = mc^2",
      '[ref]: https://x.org/ref "Ref title"',
      "|:-----|------:|",
      "==============",
      "***",
    ]
  ) {
    assert.ok(result.text.includes(kept), kept);
  }
  // A link's or image's title is a tooltip a reader sees: translated inside its quotes.
  assert.ok(result.text.includes('[THE DOCS](https://x.org/docs "DOCS")'));
  assert.ok(result.text.includes('![A CAT](cat.png "CAT")'));
  assert.ok(result.text.includes("# GETTING *STARTED* ##"));
  assert.ok(result.text.includes("> A QUOTED LINE\n> THAT CONTINUES HERE."));
  assert.equal(result.text.split("\n").length, README.split("\n").length);
});

Deno.test("markdown fallback keeps every marker when the engine drops placeholders", async () => {
  const text = "Read **the** [guide](g.md) _now_.";
  const result = await translateItem(markdownFormat, text, dropPlaceholders);
  assert.equal(result.fallbacks, 1);
  assert.equal(result.text, "READ **THE** [GUIDE](g.md) _NOW_.");
});

Deno.test("markdown keeps collapsed and shortcut reference labels, which link by their text", async () => {
  const text = "See [FAQ][] and [the guide][g] or [Docs].\n\n[faq]: /faq\n[g]: /g\n[docs]: /d\n";
  const result = await translateItem(markdownFormat, text, upperCase);
  assert.deepEqual(result.sent, ["See <x1/> and <x2>the guide</x2> or <x3/>."]);
  assert.equal(
    result.text,
    text.replace("See", "SEE").replace(" and", " AND").replace("the guide", "THE GUIDE").replace(
      " or",
      " OR",
    ),
  );
});

Deno.test("markdown sends the same segments whatever the line endings: LF, CR LF or CR alone", async () => {
  const corpus = loadCorpus().filter((d) => d.format === "markdown");
  for (const { name, text } of corpus) {
    const lf = await translateItem(markdownFormat, text.replace(/\r\n?/g, "\n"), upperCase);
    for (const ending of ["\r\n", "\r"]) {
      const other = text.replace(/\r\n?|\n/g, ending);
      const result = await translateItem(markdownFormat, other, upperCase);
      assert.deepEqual(result.sent, lf.sent, `${name} with ${JSON.stringify(ending)}`);
      assert.equal(result.text, lf.text.replaceAll("\n", ending));
    }
  }
});

Deno.test("markdown: references reach the engine as characters; an answer's syntax is written as text of its block", async () => {
  const text = "Stra&szlig;e und &Uuml;bung &amp; 10&nbsp;km &copy &notit;\n";
  const read = await translateItem(markdownFormat, text, (t) => t);
  assert.deepEqual(read.sent, ["Straße und Übung & 10\u00a0km &copy &notit;"]);
  assert.equal(read.text, text);
  const cases: [string, (text: string) => string, string][] = [
    // A line break would end the paragraph or start a block: one space.
    ["Para one.\n", (t) => `${t}\n\n- two`, "Para one. - two\n"],
    // `|` would add a column.
    [
      "| a | b |\n|---|---|\n| x | y |\n",
      (t) => `${t} | z`,
      "| a \\| z | b \\| z |\n|---|---|\n| x \\| z | y \\| z |\n",
    ],
    // Brackets could make a link.
    [
      "Text [link](http://good) end\n",
      (t) => t.replace("link", "L](http://evil)["),
      "Text [L\\](http://evil)\\[](http://good) end\n",
    ],
    // A marker at the start would make a heading or an item.
    ["Hello\n", (t) => `# ${t}`, "\\# Hello\n"],
    ["Hello\n", (t) => `1. ${t}`, "1\\. Hello\n"],
    // In a heading or a table cell a leading `1.` starts nothing: a numbered heading stays.
    ["## Introduction\n", (t) => `1. ${t}`, "## 1. Introduction\n"],
    // Emphasis, strikethrough, math, tags, references; `_` inside a word is text; a price's `$`
    // pairs with nothing (no `$` that could close math is left unescaped).
    [
      "Hello\n",
      () => "$5 *now* ~x~ snake_case _a_ <b> &amp; `c` $x$ $$y$$",
      "$5 \\*now\\* \\~x\\~ snake_case \\_a\\_ &lt;b> &amp;amp; \\`c\\` $x\\$ \\$\\$y\\$\\$\n",
    ],
  ];
  for (const [source, engine, expected] of cases) {
    assert.equal((await translateItem(markdownFormat, source, engine)).text, expected, source);
  }
});

Deno.test("markdown: inline HTML follows the HTML rules, so <kbd>, <code> and <var> are never sent", async () => {
  const text = "Press <kbd>Ctrl</kbd> and <code>npm <i>i</i></code>, then <b>save</b>.\n";
  const result = await translateItem(markdownFormat, text, upperCase);
  assert.deepEqual(result.sent, ["Press <x1/> and <x2/>, then <x3>save</x3>."]);
  assert.equal(
    result.text,
    "PRESS <kbd>Ctrl</kbd> AND <code>npm <i>i</i></code>, THEN <b>SAVE</b>.\n",
  );
  // Not closed in its block: left as any other tag, its text sent.
  assert.deepEqual((await translateItem(markdownFormat, "Open <kbd>here\n", upperCase)).sent, [
    "Open <x1/>here",
  ]);
});

Deno.test("markdown keeps GitHub's alert markers, so a block quote keeps its alert", async () => {
  const text = "> [!WARNING]\n> Back up your data first.\n\n> [!note] Short one.\n";
  const result = await translateItem(markdownFormat, text, upperCase);
  assert.deepEqual(result.sent, ["Back up your data first.", "Short one."]);
  assert.equal(result.text, "> [!WARNING]\n> BACK UP YOUR DATA FIRST.\n\n> [!note] SHORT ONE.\n");
});

Deno.test("markdown: an engine's answer never adds a block, a break, an image or a closing sequence", async () => {
  const cases: [string, (text: string) => string][] = [
    // After a soft line break, a run starts a line: underline, items, headings, quotes.
    ["First line\nsecond line\n", (t) => t.replace("second line", "==")],
    ["First line\nsecond line\n", (t) => t.replace("second line", "---")],
    ["First line\nsecond line\n", (t) => t.replace("second line", " - Zweite")],
    ["First line\nsecond line\n", (t) => t.replace("second line", " # Zweite")],
    ["First line\nsecond line\n", (t) => t.replace("second line", "   > x")],
    ["First line\nsecond line\n", (t) => t.replace("second line", " 1. x")],
    ["Greater than five\n", () => ">5"],
    ["- item one\n", () => "---"],
    // Spaces before a line break would make it a hard break.
    ["Erste\nsecond line\n", (t) => t.replace("Erste", "Erste  ")],
    // A `!` before a link's `[` would make it an image.
    ["Wow [click here](http://x.com) now.\n", (t) => t.replace("Wow ", "Super!")],
    // `#`s at a heading's end would close it.
    ["# Title\n", () => "Titel #"],
    // A table's first cell without a `|` before it is a cell all the same.
    ["a | b\n--|--\nc | d\n", (t) => `${t}|x`],
  ];
  for (const [source, engine] of cases) {
    const output = (await translateItem(markdownFormat, source, engine)).text;
    const document = { format: "markdown" as const, mode: "paragraph" };
    assert.deepEqual(
      structureOf({ ...document, text: output }).skeleton,
      structureOf({ ...document, text: source }).skeleton,
      `${JSON.stringify(source)} → ${JSON.stringify(output)}`,
    );
  }
});

Deno.test("markdown: a changed run is escaped only where its text could be read as markup", async () => {
  const cases: [string, string][] = [
    ["Press <kbd>Ctrl</kbd>+<kbd>C</kbd> now\n", "PRESS <kbd>Ctrl</kbd>+<kbd>C</kbd> NOW\n"],
    ["Use `a`-`b` and **x**=**y**\n", "USE `a`-`b` AND **X**=**Y**\n"],
    ["Open C:\\Users\\me now\n", "OPEN C:\\USERS\\ME NOW\n"],
    ["# 1. Introduction\n", "# 1. INTRODUCTION\n"],
  ];
  for (const [source, expected] of cases) {
    assert.equal((await translateItem(markdownFormat, source, upperCase)).text, expected, source);
  }
});

Deno.test("markdown translates a link's or image's title inside its quotes, and inline HTML's attributes by the HTML rules", async () => {
  const text =
    "See [the guide](https://x.org/a_(b) \"Read it\") and ![a cat](cat.png 'A cat').\n\n" +
    "![](y.png (Alone)) and <abbr title=\"Control key\">Ctrl</abbr> <img src=a.png alt='An icon'>" +
    ' <kbd title="Key">K</kbd>\n\n[ref]: https://x.org "Kept as written"\n';
  const result = await translateItem(markdownFormat, text, upperCase);
  assert.deepEqual(result.sent, [
    "Read it",
    "A cat",
    "See <x1>the guide</x1> and <x2>a cat</x2>.",
    "Alone",
    "Control key",
    "An icon",
    // `kbd` keeps its content, not the title a reader sees on it (as in the HTML format).
    "Key",
    "<x1/> and <x2>Ctrl</x2> <x3/> <x4/>",
  ]);
  assert.equal(
    result.text,
    "SEE [THE GUIDE](https://x.org/a_(b) \"READ IT\") AND ![A CAT](cat.png 'A CAT').\n\n" +
      "![](y.png (ALONE)) AND <abbr title=\"CONTROL KEY\">CTRL</abbr> <img src=a.png alt='AN ICON'>" +
      ' <kbd title="KEY">K</kbd>\n\n[ref]: https://x.org "Kept as written"\n',
  );
  // The fallback renders them too.
  const fallback = await translateItem(markdownFormat, text, dropPlaceholders);
  assert.ok(fallback.text.includes('"READ IT"') && fallback.text.includes("alt='AN ICON'"));
  // A title the engine answers with its delimiter, a backslash, a reference or a line break
  // stays one title; an untouched one keeps its escapes and references as written.
  const hostile = await translateItem(
    markdownFormat,
    '[a](u "x") [b](v \'y\') [c](w (z)) [d](t "Caf&eacute; \\"q\\"")\n',
    (sent) => ({ x: 'say "hi"\n\nC:\\ &amp; D:\\', y: "it's", z: "(1)" })[sent] ?? sent,
  );
  assert.equal(
    hostile.text,
    '[a](u "say \\"hi\\" C:\\ &amp;amp; D:\\\\") [b](v \'it\\\'s\') [c](w (\\(1\\))) ' +
      '[d](t "Caf&eacute; \\"q\\"")\n',
  );
});

Deno.test("markdown: a changed title keeps the author's references", async () => {
  const result = await translateItem(
    markdownFormat,
    "[a](u \"T&amp;C\") [b](v 'Caf&eacute; &quot;x&quot;')\n",
    (sent) => sent.includes("<x") ? sent : `${sent} & "y"`,
  );
  assert.equal(
    result.text,
    '[a](u "T&amp;C &amp; \\"y\\"") [b](v \'Caf&eacute; &quot;x&quot; & &quot;y&quot;\')\n',
  );
});

Deno.test("markdown: an engine's line break or | in a title or an inline HTML attribute keeps the line and the table row", async () => {
  const text = '# Read the <abbr title="Frequently asked">FAQ</abbr> first\n\n' +
    '| Name | Link |\n|---|---|\n| Docs | [guide](https://x.com/g "The guide") <img src=i.png alt="An icon"> |\n\n' +
    '> See <abbr title="Hyper\n> text">HT</abbr> now.\n';
  const result = await translateItem(markdownFormat, text, (sent) => `${sent}\n\nmore a|b`);
  // A value over lines (a block quote's `> ` inside it) is not sent.
  assert.ok(!result.sent.some((sent) => sent.includes("Hyper")), JSON.stringify(result.sent));
  const lines = result.text.split("\n");
  assert.equal(lines.length, text.split("\n").length);
  assert.match(lines[0], /^# .*<abbr title="Frequently asked more a&#124;b">/);
  assert.match(lines[4], /"The guide more a\\\|b"\) <img src=i\.png alt="An icon more a&#124;b">/);
  assert.equal(lines[4].split(/(?<!\\)\|/).length, 4, lines[4]); // still two cells
  assert.ok(result.text.includes('> See <abbr title="Hyper\n> text">'));
});

Deno.test("markdown: inline HTML marked translate=no or notranslate is kept whole, as in HTML", async () => {
  const text = 'Say <span translate="no" title="Keep me">Keep me</span> now and ' +
    "<b class='x notranslate'>Brand</b>, but <i class=notranslated>this</i> <span>too</span>.\n";
  const result = await translateItem(markdownFormat, text, upperCase);
  assert.deepEqual(result.sent, ["Say <x1/> now and <x2/>, but <x3>this</x3> <x4>too</x4>."]);
  assert.equal(
    result.text,
    'SAY <span translate="no" title="Keep me">Keep me</span> NOW AND ' +
      "<b class='x notranslate'>Brand</b>, BUT <i class=notranslated>THIS</i> <span>TOO</span>.\n",
  );
});

Deno.test("markdown: inline HTML of an icon font's ligature is kept whole, as in HTML", async () => {
  const text = 'Press <span class="material-icons">delete</span> to remove it.\n';
  const result = await translateItem(markdownFormat, text, upperCase);
  assert.deepEqual(result.sent, ["Press <x1/> to remove it."]);
  assert.equal(result.text, 'PRESS <span class="material-icons">delete</span> TO REMOVE IT.\n');
});

Deno.test("markdown keeps a link whose text is its address, also written with references", async () => {
  const markdown = "Mail [info&#64;example.com](mailto:info@example.com) or " +
    "[https&#x3A;//x.org/a](https://x.org/a) now.\n";
  const result = await translateItem(markdownFormat, markdown, upperCase);
  assert.deepEqual(result.sent, ["Mail <x1><x2/></x1> or <x3><x4/></x3> now."]);
  assert.equal(
    result.text,
    "MAIL [info&#64;example.com](mailto:info@example.com) OR " +
      "[https&#x3A;//x.org/a](https://x.org/a) NOW.\n",
  );
});
