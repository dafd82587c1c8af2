/**
 * The own Markdown scanner (translation/formats/markdown_scan.ts) against micromark on inline
 * shapes: comments and declarations, bare addresses, `~` runs, emphasis pairing, references
 * and link text. Wherever the scanner does not decline, the cut is micromark's.
 */
import assert from "node:assert/strict";
import { cutMarkdown } from "../../../translation/formats/markdown.ts";
import { scanSyntax } from "../../../translation/formats/markdown_scan.ts";
import {
  assertCutsLikeMicromark,
  assertScannedLikeMicromark,
} from "../../support/markdown_reader_cut.ts";
import { randomTexts } from "../../support/markdown_grammar.ts";

/** Pieces of comments, instructions, declarations and CDATA in text, closed or not. */
const DECLARATION_PIECES = [
  ...["<!--", "-->", "<!-->", "<!--->", "-", "--", ">", "<?", "?>", "<!DOCTYPE", "<!x", "<!1"],
  ...["<![CDATA[", "]]>", "]", "a", "b", " ", "\n", "*", "`", "[", "](u)", "> ", "  ", "<b>"],
];

Deno.test("the own scanner reads comments, instructions, declarations and CDATA in text as micromark", () => {
  const texts = randomTexts(DECLARATION_PIECES, 14).concat(
    "Text <!-- a note\n  over lines --> *on*.",
  );
  const read = assertCutsLikeMicromark(texts, scanSyntax);
  assert.ok(read > texts.length * 0.6, `${read} of ${texts.length} read by the scanner`);
  assert.ok(scanSyntax(texts.at(-1)!));
});

/** Pieces of inline text around bare addresses: what comes before and after them decides. */
const ADDRESS_PIECES = [
  ...["https://x.org", "http://a.b/c", "www.e.com", "www.e.com/p/q.", "HTTPS://X.ORG/", "(", ")"],
  ...["https://x.y/a_b", "[", "]", "](u)", "*", "_", "~", "**", "a", "1", " ", " ", ".", ",", ";"],
  ...[":", "!", "?", "'", '"', "<", ">", "<b>", "&amp;", "é", "\u00a0", "-", "/", "\n", "`", "\\"],
  ...["x@y.org", "mailto:a@b.c", "&", "#", "=", "%", "?x=1", "&x;", ":8080", "(a)", "a_b"],
  ...["www.a_b.c", "https://a.b_c.d/", "https://-a.b", "..", "[x]", "%20", "www.", "http://"],
  ...["https://\u00fc.de/\u00e4", "\u{1f600}", "\t", "\u2003", "@", "a@b", "a@b.c", "@b.cd"],
  ...["x.y@z.org", "_a@b.cd", "\\_", "+", "a-b@c_d.ef", "@x.y-", "a@b.c.", "a@b.c1", "/x@y.z"],
];

Deno.test("the own scanner cuts bare addresses in random inline text exactly as micromark does", () => {
  const texts = randomTexts(ADDRESS_PIECES, 12);
  const read = assertCutsLikeMicromark(texts, scanSyntax);
  assert.ok(read > texts.length * 0.3, `${read} of ${texts.length} read by the scanner`);
});

Deno.test("addresses after punctuation, with queries, in link text; one-column tables: as micromark", () => {
  const read = [
    "See (https://example.org/docs) and [https://example.org](https://example.org).",
    'Quoted: "www.example.com", then *www.example.com*.',
    "[see https://example.org and more](u)",
    "Query, port, fragment: https://example.org:8080/a_b?q=1&r=(2)#top, then www.x.org/a).",
    "An entity after one: https://example.org/a&amp; and [http://localhost](u)",
    "Write to first.last+tag@example.org, _team_@example.co.uk or a@b.c1 (no address).",
  ];
  for (const text of read) assert.ok(scanSyntax(text), text);
  const texts = [
    ...read,
    " www.e.com", // a bare address after leading white space
    "a\n-:", // a table of one column with no pipe
    "[a]: /u(x)\n\n[a]", // a definition whose bare destination holds a parenthesis
    "[! /]:)-HTTPS://X.ORG/",
    "x https://x.org/a)b", // the address goes on past `)`
    "www. ", // micromark links `www` before a space it keeps after a paragraph
    "# www. #",
    "www.e.comx@y.org", // an e-mail address first
    "a@.y@.g", // the second `@` follows an address: no second one
  ];
  assertCutsLikeMicromark(texts, scanSyntax);
});

/** Pieces of inline text around `~` runs, alone or paired, beside emphasis and in links. */
const TILDE_PIECES = [
  ...["~", "~~", "~~~", "~", "~~", "*", "**", "_", "a", "b", " ", " ", ".", '"', "/", "1,000"],
  ...["[", "]", "](u)", "[x](y)", "\\~", "`c`", "\n", "(", ")"],
];

Deno.test("the own scanner reads `~` runs in random inline text exactly as micromark does", () => {
  const texts = randomTexts(TILDE_PIECES, 16).concat(
    // Real files: a tilde alone in link text, or between a quote and a slash.
    "- [Used by ~115,000 packages](https://www.npmjs.com/) as of July 4, 2024",
    '* Default: "~/.npm-init.js"',
  );
  const read = assertCutsLikeMicromark(texts, scanSyntax);
  assert.ok(read > texts.length * 0.5, `${read} of ${texts.length} read by the scanner`);
  assert.ok(scanSyntax(texts.at(-1)!) && scanSyntax(texts.at(-2)!));
});

/** Pieces of inline text of `*` and `_` runs of every kind, with links, code and escapes. */
const EMPHASIS_PIECES = [
  ...["*", "**", "***", "****", "_", "__", "___", "a", "b", " ", " ", ".", "!", "x_y", "a*b"],
  ...["*_", "_*", "`c`", "[", "]", "](u)", "[x](y)", "\\*", "<b>", "é", "\n", "(", ")"],
];

Deno.test("the own scanner pairs emphasis in random inline text exactly as micromark does", () => {
  const texts = randomTexts(EMPHASIS_PIECES, 20);
  const read = assertCutsLikeMicromark(texts, scanSyntax);
  assert.ok(read > texts.length * 0.5, `${read} of ${texts.length} read by the scanner`);
});

Deno.test("runs that may open and close, runs of three and runs pairing nothing: read as micromark", () => {
  const texts = [
    "snake*case*words and ***both*** and **strong *nested* here**",
    "_**b****a*_", // `**b**` pairs inside `_…_` once `*a*` took one `*` of the four
    "a*_".repeat(2666), // each `*` walked back to the paragraph's start in micromark
    "**".repeat(1999) + "word" + "**".repeat(1999),
    "![[]()]()", // a link inside an image's alt: the image still stands
  ];
  assertScannedLikeMicromark(texts);
});

/** Pieces of inline text of brackets: links, references (defined or not), broken resources. */
const REFERENCE_PIECES = [
  ...[
    "[",
    "]",
    "[a]",
    "[b]",
    "[]",
    "[a][]",
    "[a][b]",
    "[x][a]",
    "[b][x]",
    "(u)",
    "(",
    ")",
    "![",
    "*",
  ],
  ...[
    "_",
    "a",
    " ",
    "\n",
    "`c`",
    "\\[",
    "\\]",
    "[^1]",
    "<b>",
    "https://x.org",
    "!",
    "[A]",
    "[ a ]",
  ],
  ...["(b c)", "(b 'x' y)", "(b\n)", "(<b> c)", "(b)x", '(b "t")', '(<b>"t")', "( b )", "(b(c)d)"],
];
const DEFINITIONS = ["", "\n\n[a]: /u", "\n\n[a]: /u\n[b]: /v", "\n\n[x]: /x 'T'", "\n\n[^1]: n"];

Deno.test("the own scanner reads references and broken resources exactly as micromark does", () => {
  const texts = randomTexts(REFERENCE_PIECES, 14)
    .map((text, index) => text + DEFINITIONS[index % DEFINITIONS.length]);
  const read = assertCutsLikeMicromark(texts, scanSyntax);
  assert.ok(read > texts.length * 0.4, `${read} of ${texts.length} read by the scanner`);
  // A footnote call to no definition (a real file cut at the item limit) is a bracket.
  assertScannedLikeMicromark([
    "| OS | Versions |\n|---|---|\n| GNU/Linux | kernel >= 4.18[^1] |\n",
    "See [^1](u) and [^2][a].\n\n[a]: /u",
  ]);
});

Deno.test("link text over lines, in quotes, with escapes or brackets is looked up as micromark does", () => {
  const texts = [
    "> See the [module\n> resolution algorithm][] and [more\n> text].\n\n" +
    "[module resolution algorithm]: /esm\n[more text]: /m",
    "- An item with [a label\n  over two lines] in it.\n\n[a label over two lines]: /u",
    "> - [quoted\n>   item][]\n\n[quoted item]: /q",
    "[a\\]b][] and [a\\]b] and [x\\\\]\n\n[a\\]b]: /u\n[x\\\\]: /x",
    "[functionParams: `string[]`] and [`[a]`][] and [b [c] d]\n\n[c]: /c\n[b d]: /b",
    "> [not\ndefined] and [lazy\nline][]\n\n[lazy line]: /l",
  ];
  assertScannedLikeMicromark(texts);
  // The lookup is what links them: links whose text is their label are kept whole.
  assert.deepEqual(cutMarkdown(texts[0]).segments.map((s) => s.text).slice(0, 1), [
    "See the <x1/> and <x2/>.",
  ]);
});

Deno.test("a reference to nothing and a resource that is none leave their brackets as text", () => {
  const texts = [
    "See [the guide][missing] and [this](not a resource) here.",
    "Cut short at the item's end: [a link](https://example.org/a",
    "[defined](a b) links as its own reference.\n\n[defined]: /u",
  ];
  assertScannedLikeMicromark(texts);
});
