/**
 * The own Markdown scanner (translation/formats/markdown_scan.ts) against micromark on block
 * shapes: containers, tables, HTML blocks, lazy lines, footnotes, definitions, tabs, CR LF and
 * random soups of block pieces. Wherever the scanner does not decline, the cut is micromark's.
 */
import assert from "node:assert/strict";
import { cutMarkdown } from "../../../translation/formats/markdown.ts";
import { scanSyntax } from "../../../translation/formats/markdown_scan.ts";
import { readInColumns } from "../../../translation/formats/markdown_read_columns.ts";
import { loadCorpus } from "../../support/document_structure.ts";
import {
  assertCutsLikeMicromark,
  assertScannedLikeMicromark,
} from "../../support/markdown_reader_cut.ts";
import { documents, GENERATED, randomTexts } from "../../support/markdown_grammar.ts";
import { seededRandom } from "../../support/seeded_random.ts";

/** Lines of container prefixes and leaf starts, to stress the block pass of the own scanner. */
const PREFIXES = [
  ...["", "", "", "> ", ">", ">  ", " > ", "- ", "* ", "+ ", "-  ", "1. ", "2) ", "10. "],
  ...["  ", "   ", "    ", "      ", "> - ", "- > ", "  - ", "    - ", "> > ", "- - ", "1. - "],
];
const LEAVES = [
  ...["word one", "two *em* and **strong**", "# Heading", "## Heading ##", "```", "~~~ js"],
  ...["---", "===", "***", "| a | b |", "|---|:-:|", "a | b", "<div>", "</div>", "<!-- c -->"],
  ...["[x]: /url", "[^1]: note", "[ ] task", "[x] done", "", "", "text [link](/u) end", "[x]"],
  ...["`code`", "$$", "x  ", "x\\", "<b>bold</b> text", "see [^1]", "1) not first"],
  ...["*open", "close*", "[x][]", "[a][x] b", "`span", "over`", "<script>", "</script>", "\\- no"],
  // Lines that leave their containers (lazy), lists that may not interrupt a paragraph, a
  // delimiter row indented as code, a tag alone on a line, definition titles, a row ending in `\`.
  ...["lazy words", "2. two", "01. one", "-", "    -|-", "<x>", "    code?", "=", "> q"],
  ...['"a title"', "(t)", "a | b\\", "   [x]: /u"],
  // Table rows of every shape, in and out of containers.
  ...["-|-", "| x |", "|:-|", "a|b|c", "--|--|--", "- |---|:-:|"],
];

Deno.test("the own scanner cuts documents of random container lines exactly as micromark does", () => {
  const count = GENERATED * 2;
  const texts = Array.from({ length: count }, (_, index) => {
    const next = seededRandom(index + 1);
    const pick = <T>(options: readonly T[]) => options[Math.floor(next() * options.length)];
    return Array.from({ length: 1 + Math.floor(next() * 8) }, () => pick(PREFIXES) + pick(LEAVES))
      .join("\n");
  });
  const read = assertCutsLikeMicromark(texts, scanSyntax);
  assert.ok(read > count * 0.2, `${read} of ${count} read by the scanner`);
});

Deno.test("the own scanner reads tables inside list items and block quotes as micromark does", () => {
  const texts = [
    "- Options:\n\n  | Name | Type |\n  |------|------|\n  | url  | `URL \\| string` |\n- Next item",
    "> | a | b |\n> |---|---|\n> | 1 | 2 |\n\nAfter the quote.",
    "1. > x | y\n   > --|--\n   > 3 | 4\n   lazy or not: the table ends here",
    "- a | b\n--|--", // a delimiter row on a lazy line: no table
    "- a | b\n  - |---|", // a delimiter row that opens an item: no table
  ];
  assertScannedLikeMicromark(texts);
  assert.deepEqual(cutMarkdown(texts[1]).segments.map((s) => s.text), [
    "a",
    "b",
    "1",
    "2",
    "After the quote.",
  ]);
});

Deno.test("the own scanner reads HTML blocks inside list items and block quotes as micromark does", () => {
  const texts = [
    "* An item with a comment:\n\n  <!-- eslint-disable no-useless-return -->\n\n  ```js\n  x\n  ```",
    '> <div class="note">\n> Quoted <b>markup</b>\n> </div>\n\nAfter.',
    "- <details>\n  <summary>More</summary>\n\n  Text in the item.\n- next",
    "> <div>\n*lazy*: the block ends, the line is a paragraph\n\n1. <p>item</p>",
  ];
  assertScannedLikeMicromark(texts);
  assert.deepEqual(cutMarkdown(texts[2]).segments.map((s) => s.text), [
    "More",
    "Text in the item.",
    "next",
  ]);
});

Deno.test("the own scanner reads empty list items as micromark does", () => {
  const texts = [
    "- first\n-\n- third", // an empty item between two
    "-\n  content on the next line\n- next",
    "-\n\n  after a blank line: no longer in the item",
    "-\n\n    so this is code, not the item's text",
    "1.\n2. two\n3.   \n\n   after a blank",
    "> -\n>   quoted content\n> -",
    "- a\n\n  -\n    b\n\n- c",
    "- a\n  *\n  b", // an empty item may not interrupt a paragraph: `*` is its text
  ];
  assertScannedLikeMicromark(texts);
  assert.deepEqual(cutMarkdown(texts[2]).segments.map((s) => s.text), [
    "after a blank line: no longer in the item",
  ]);
  // micromark reads a `[` on the line after an empty item, in it or not, as its task check.
  assert.equal(scanSyntax("- > -\n  [ ] task"), undefined);
  assert.equal(scanSyntax("-\n[x] done"), undefined);
});

Deno.test("the own scanner reads lazy continuation lines as micromark does", () => {
  const texts = [
    "- An item whose text\nwraps without indentation\nover three lines.\n- Next item.",
    "> A quoted line\nand its lazy continuation\n> back in the quote.\n\nAfter.",
    "> - nested\nlazy\n    indented four, still lazy\n===\n\n1. one\n2. two\nlazy",
    // Four thousand lazy lines: micromark walks back over the paragraph's lines at each one
    // (0.6 s for this 8,000-code-point item); the scanner reads it in one pass.
    "- a\n" + "b\n".repeat(3998),
    // Where micromark and CommonMark part: a tag alone on a lazy line starts an HTML block
    // inside the containers the line left, which goes on while lines continue them.
    "> a\n</span>\nb",
    "> a\n<span>\n> b *c*\n\nd",
    "- a\n  - b\n<x>\n    c\n  d\n",
    // A line that leaves containers is held to no rule of interrupting: any item starts.
    "- a\n2. x\n",
    "> a\n- \n  b\n",
    "* a\n2) x\n",
    "> - a\n10. x\n",
  ];
  assertScannedLikeMicromark(texts);
});

Deno.test("the own scanner reads footnote definitions over several lines as micromark does", () => {
  const texts = [
    "Text[^1] and more[^2].\n\n[^1]: A note\n    going on, indented.\n[^2]: Another\nlazy line.\n",
    "[^1]: A first paragraph.\n\n    A second one, [linked](/u).\n\n        code in it\n\nAfter.\n",
    "[^1]: a\n    - x\n    - y\nlazy\n\n    > quoted\n    on\n\n  two spaces: outside\n",
    "[^1]: a\n    # heading\n    b\n    ===\n    ```\n    fenced\n    ```\n",
    "- item\n[^1]: a definition ends the list\n> quote\n[^2]: and the quote\n",
    "   [^1]: indented three\n\n\n    still the note\n    <b>html</b>\n",
    "[^1]: a\n\n      six spaces: a paragraph in the note, not code\n",
    "[^1]:\n    Its text on the next line.\n[^2]:\n\n    Or after a blank one.\n[^3]:\nOr lazy.\n",
    "A paragraph[^1]\n[^1]: interrupted by a definition.\n",
    // Four thousand lazy lines, as under a list item: 0.5 s in micromark.
    "[^1]: a\n" + "b\n".repeat(3996),
  ];
  assertScannedLikeMicromark(texts);
  // Declined: a definition inside another container.
  for (const text of ["[^1]: a\n    [^2]: b\n", "- [^1]: a\n"]) {
    assert.equal(scanSyntax(text), undefined, text);
  }
});

Deno.test("a definition's label alone on its line, its destination on the next: read as micromark", () => {
  const texts = [
    "The [Node.js Moderation Policy] applies.\n\n[Node.js Moderation Policy]:\n" +
    "https://github.com/nodejs/admin/blob/main/Moderation-Policy.md\n",
    "[a]:\n    <https://x.y> 'T'\ntext [a]\n",
    "> [a]:\n>   https://x.y\n\n> [a]\n",
    "x\n[a]:\nhttps://x.y\n\n[a]\n",
    "[a]:\n`code`\n[a] has a backticked destination\n",
  ];
  assertScannedLikeMicromark(texts);
  // Declined: a lazy destination, a title on a third line, an underline or a list after it.
  for (
    const text of ["> [a]:\nhttps://x\n", "[a]:\nhttps://x\n'T'\n", "[a]:\n===\n", "[a]:\n- x\n"]
  ) {
    assert.equal(scanSyntax(text), undefined, text);
  }
});

Deno.test("an inline tag over lines is read as micromark reads it where only indentation parts them", () => {
  assertScannedLikeMicromark([
    '# Nano ID\n\n<img src="https://ai.github.io/nanoid/logo.svg" align="right"\n' +
    '     alt="Nano ID logo by Anton Lovchikov" width="180" height="94">\n\n**A tiny** string.\n',
    "- a <img\n  src=x> *b*\n",
    "> lazy <img\nsrc=x> b\n",
    "a <img alt='y\nz'>  \nhard break, then *emphasis* at a line's start\n",
    "1. a <x\n   y=1>\n   c\n",
  ]);
  // A quote's `>` between its lines: micromark reads the tag without it, the patterns with it.
  assert.equal(scanSyntax("> a <img\n> src=x> b\n"), undefined);
});

Deno.test("an item that may not interrupt is text after indented code or a definition, as in micromark", () => {
  assertScannedLikeMicromark([
    "    code\n-\n",
    "    code\n \n-\n",
    "    code\n2. x\n3. y\n",
    "[a]: /u\n2. x\n\n[a]\n",
    "- a\n\n      code\n  2. x\n",
    "    code\n-\n---\n",
    // After code of one line (blank ones aside) that closed containers and opened none,
    // micromark starts the item; after two lines, or one that opened a quote, it is text again.
    "> ```\n    x\n10. y\n",
    "> a\n    x\n\n\n- \n  b\n",
    "> ```\n    x\n    x\n10. y\n",
    "1. z\n>     code\n> 2. x\n",
    // A tag alone: an HTML block after code, the definition's paragraph after a definition.
    "    code\n<x>\nb\n",
    "[a]: /u\n<x>\n\n[a]\n",
    "[a]: /u\n- <x>\n\n[a]\n",
  ]);
});

Deno.test("a math fence interrupts a paragraph, as a code fence does, in micromark", () => {
  assertScannedLikeMicromark([
    "The energy is\n$$\nE = mc^2\n$$\nwhere *c* is the speed of light.\n",
    "text\n$$ meta\nx\n$$\n",
    "> quoted\n$$\nx\n$$\n",
    "inline $$ math $$ goes on\n$$x$$ too\n",
  ]);
  const pieces = ["$$", "$$\n", "$", "$$$", " $$ ", "$$ a $$", "text", "\n", "\n", " ", "x^2"]
    .concat(["> ", "- ", "```", "*", "\\$", "`c`", "a $b$ c", "\n\n", "1. ", "    "]);
  const texts = randomTexts(pieces, 16);
  const read = assertCutsLikeMicromark(texts, scanSyntax);
  assert.ok(read > texts.length * 0.6, `${read} of ${texts.length} read by the scanner`);
});

Deno.test("a table ended by another block, in containers or not, is read as micromark reads it", () => {
  const table = "| Name | Role |\n|------|------|\n| Ana | *lead* |\n";
  const after = [
    "# Heading",
    "- item | with a pipe",
    "> quoted | text",
    "```\ncode | x\n```",
    "---",
    "<div>",
    "<b>inline</b> | a row",
    "    indented code | not a row",
    "[^1]: a note | not a row\n\nSee[^1].",
    "1. one",
    "$$\nmath\n$$",
    "plain | row",
  ];
  const texts = after.flatMap((block) => {
    const text = `${table}${block}\nafter it\n`;
    return [text, `> ${text.replace(/\n(?!$)/g, "\n> ")}`, `- ${text.replace(/\n(?!$)/g, "\n  ")}`]
      .filter((shape) => !shape.includes("\n> [^1]") && !shape.includes("\n  [^1]"));
  });
  assertScannedLikeMicromark(texts);
});

Deno.test("shapes where the own scanner once parted from micromark are cut as micromark cuts them", () => {
  const texts = [
    "a\n01. b", // only `1.` interrupts a paragraph in micromark, not `01.`
    "a\n- > 2. b", // nor a `2.` inside a list and a quote opened on the interrupting line
    "    code\n> > 2. b", // nor after indented code
    "10. ```\n[x]: /url\n>2. b", // nor after a definition
    "a|b\n    -|-", // a delimiter row indented four spaces is text
    "a | b\n|---|:-:|\nx\\\n\n> q", // a row's last cell ending in `\`
    '>[x]: /url\n> "title"\n\nz', // a title on the next line of a quote
    ">[x]: /url\n>     ===\nclose*\n     ---", // an indented line after a definition in a quote
  ];
  assertCutsLikeMicromark(texts, scanSyntax);
});

Deno.test("the own scanner reads CR LF and CR documents, its offsets in the document as written", () => {
  const corpus = loadCorpus().filter((d) => d.format === "markdown").map((d) => d.text);
  const texts = [
    ...corpus.map((text) => text.replace(/\r?\n/g, "\r\n")),
    ...corpus.map((text) => text.replace(/\r?\n/g, "\r")),
    "Mixed\r\nline endings\n\n- item  \r\n  continued\r\n",
    "> a\r\nlazy\r\n",
    "old\rMac\r\r- a\rb\r\n\rc\n",
    // A CR alone is a line ending to micromark, whose footnote call looked back over every
    // earlier `]` at each one (0.44 s for this item); the scanner reads it in one pass.
    "a\r" + "]".repeat(7998),
  ];
  assertScannedLikeMicromark(texts);
});

/** Container prefixes and leaves with tabs: in indentation, after markers, inside and at the end. */
const TAB_PREFIXES = [
  ...["", "", ">", ">\t", "-\t", "*\t", "1.\t", "2)\t", "10.\t", "- [ ]\t", "-\t[\t]\t"],
  ...["> -\t", "-\t>\t", "\t-\t", " \t> ", "\t", "\t\t", "  \t", "   \t", "- ", "> "],
];
const TAB_LEAVES = [
  ...["word\tone", "two *em*\tand", "#\tHeading", "##\tHeading\t##", "```", "~~~\tjs"],
  ...["-\t-\t-", "***\t", "===\t", "|\ta\t|\tb\t|", "|---|:-:|", "a\t|\tb", "<div\tclass=x>"],
  ...['[x]:\t/url\t"t"', "[^1]:\tnote", "[ ]\ttask", "[\t]\ttask", "[x]\tdone", "", "`code\t`"],
  ...[
    "`\tc\t`",
    "x\t",
    "x \t",
    "x\t ",
    "x\\\t",
    "x  ",
    "<b>b</b>\tt",
    "*open",
    "close*",
    "2.\ttwo",
  ],
  ...["    code?", "\tcode", "a\t*b*\t", "*\ta*", "_a_\tb", "https://x.org\t", "a@b.org\tx"],
  ...["[a](<b\tc>)", "[a](b\tc)", "![i](u\t'T')", "\t\t\tz", "lazy words"],
];

Deno.test("the own scanner reads tabs by micromark's columns and cuts as micromark does", () => {
  // CommonMark's examples of tabs, then lines of tabbed prefixes and leaves, then the generated
  // documents with some of their spaces turned into tabs.
  const examples = [
    "\tfoo\tbaz\t\tbim",
    "  \tfoo\tbaz\t\tbim",
    "  - foo\n\n\tbar",
    "- foo\n\n\t\tbar",
    ">\t\tfoo",
    "    foo\n\tbar",
    " - foo\n   - bar\n\t - baz",
    "#\tFoo",
    "*\t*\t*\t",
    "- A tab-indented list\n\twith a continuation\n\n\t- and a nested item\n\t\tand its text",
  ];
  const count = GENERATED * 2;
  const lines = Array.from({ length: count }, (_, index) => {
    const next = seededRandom(index + 1);
    const pick = <T>(options: readonly T[]) => options[Math.floor(next() * options.length)];
    return Array.from(
      { length: 1 + Math.floor(next() * 8) },
      () => pick(TAB_PREFIXES) + pick(TAB_LEAVES),
    )
      .join(pick(["\n", "\n", "\r\n", "\r"]));
  });
  const generated = documents(GENERATED).map((text, index) => {
    const next = seededRandom(index + 1);
    return text.replace(/ {1,4}/g, (spaces) => next() < 0.3 ? "\t" : spaces);
  });
  assert.equal(assertCutsLikeMicromark(examples, scanSyntax), examples.length);
  const read = assertCutsLikeMicromark([...lines, ...generated], scanSyntax);
  assert.ok(read > (lines.length + generated.length) * 0.3, `${read} read by the scanner`);
  // An item starting with indented code (after a tab's columns) goes to marked and micromark.
  assert.equal(scanSyntax("-\t\tcode"), undefined);
});

Deno.test("tabs are read to the next stop of four columns and offsets moved back; none inside a tab", () => {
  const node = (start: number, end: number) => ({ type: "x", start, end, children: [] });
  let read = "";
  const tree = readInColumns("a\tb\r\n\t\tc", (text) => {
    read = text;
    // `b` and `c`, and a node from the first tab's start to the line ending.
    return { ...node(0, text.length), children: [node(4, 5), node(1, 5), node(14, 15)] };
  });
  assert.equal(read, "a   b\n        c");
  assert.deepEqual(tree!.children.map(({ start, end }) => [start, end]), [[2, 3], [1, 3], [7, 8]]);
  // A boundary two columns into a tab has no offset in the document as written.
  assert.equal(readInColumns("\tb", () => ({ ...node(0, 5), children: [node(2, 5)] })), undefined);
});

/** Pieces of block and inline syntax, line endings and tabs, thrown together at random. */
const SOUP = [
  ...["\t", " ", "  ", "\n", "\r", "\r\n", ">", "-", "*", "+", "1.", "2)", "|", "[", "]", "("],
  ...[")", "<div>", "</div>", "<!--", "-->", "`", "```", "~", "_", "a", "b c", "#", "=", "---"],
  ...["[^1]", "[^1]:", "[a]:", "![", "\\", "&amp;", "$", "$$", "<b>", "http://x.y", ":", "-|-"],
  "|--|",
];

Deno.test("the own scanner cuts random soups of Markdown pieces exactly as micromark does", () => {
  const texts = randomTexts(SOUP, 30).concat(
    // Found by the soup: a `#` starting no heading over a delimiter row is a table's header; a
    // pipe alone is none; a label going on to the next line makes a definition; a definition's
    // line over a delimiter row is a table's header.
    "#2)|\r  |--|\ra",
    "|\n|--|\n",
    "[\nfoo]: /url\n\n[foo]",
    "[a\\\nb]: /u\n\n[a\\ b]",
    "[a]: /u\n-:",
  );
  const read = assertCutsLikeMicromark(texts, scanSyntax);
  assert.ok(read > texts.length * 0.3, `${read} of ${texts.length} read by the scanner`);
});

/**
 * Lines that start, end and interrupt blocks: indented code, definitions, empty and numbered
 * items, tags alone, quotes, fences (what micromark reads after code or containers that closed).
 */
const LINE_PIECES = [
  ...["    code", "      code", "2. x", "-", "- ", "> ", "> 2. x", ">     code", "[a]: /u", "[a]:"],
  ...["  /u", "10. y", "", "", "text", "  text", "```", "1. z", "* ", "- a", "  2. b", "   -"],
  ...["$$", "<div>", "2) <b>x</b>", "# h", "===", "---", "[a]", "> a", "  - b", "<x>", "</span>"],
  ...["> b", "  b", ">   c", "<x a=1>", "> <x>", "> > a", "</x> y", "> ```", "  <x>", "    <x>"],
  ...["| a |", "|---|", "[^1]:", "[^1]: x", "See[^1]."],
].map((line) => `${line}\n`);

Deno.test("the own scanner cuts random lines after code, definitions and closed containers as micromark", () => {
  const texts = randomTexts(LINE_PIECES, 9);
  const read = assertCutsLikeMicromark(texts, scanSyntax);
  assert.ok(read > texts.length * 0.6, `${read} of ${texts.length} read by the scanner`);
});
