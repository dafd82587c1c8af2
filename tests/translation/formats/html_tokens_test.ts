import assert from "node:assert/strict";
import { scannedTokens } from "../../../translation/formats/html_scanner.ts";
import { parse5Tokens } from "../../../translation/formats/html_tokenizer.ts";
import { seededJoins } from "../../support/seeded_random.ts";

const CORPUS = new URL("../../fixtures/documents/", import.meta.url);

/** Pieces the generated inputs are made of: tags, attributes in every quoting, comments. */
const PIECES = [
  ...["<p>", "</p>", "<P class=x>", "<div>", "</div>", "<li>", "<td>", "<tr>", "<table>", "</a>"],
  ...["<a href='/x?a=1&amp;b=2'>", '<img alt="A cat" src=c.png>', "<br/>", "<br>", "<input"],
  ...[" title=T", " alt = 'x'", ' class="notranslate"', " translate=no", ' translate="YES"'],
  ...[" data-x", " =y", ' b="c"d=e', " /", "/>", ">", " ", "\n", "\r\n", "\r", "\t", "\f"],
  ...["<!-- c -->", "<!-->", "<!--->", "<!---->", "<!--a--!>", "<!--", "-->", "--!", "-"],
  ...["<!DOCTYPE html>", "<!doctype>", "<script>", "</script>", "</script >", "<style>"],
  ...["</style/>", "<textarea>", "</textarea>", "<title>", "</TITLE>", "<svg>", "</svg>"],
  ...["<math>", "<circle/>", "<plaintext>", "<noscript>", "</noscript>", "<", "</", "<3"],
  ...["&", "&amp;", "&lt", "Hello ", "world. ", "é", "\u{1F600}", "<span>", "</span>", "=", "'"],
  ...['"', "<b", "<i>", "</i>", "<x-y:z>", "<template>", "</template>", "<code>", "</code>"],
];

Deno.test("the scanner reads every HTML document of the corpus into parse5's tokens", () => {
  for (const entry of Deno.readDirSync(CORPUS)) {
    if (!entry.name.endsWith(".html")) continue;
    const source = Deno.readTextFileSync(new URL(entry.name, CORPUS));
    const scanned = scannedTokens(source);
    assert.ok(scanned, `${entry.name}: the scanner declined`);
    assert.deepEqual(scanned, parse5Tokens(source), entry.name);
  }
});

Deno.test("the scanner gives parse5's tokens on random markup, or declines", () => {
  let read = 0;
  const inputs = seededJoins(PIECES, 4000, 11);
  for (const input of inputs) {
    const scanned = scannedTokens(input);
    if (scanned === undefined) continue;
    read++;
    assert.deepEqual(scanned, parse5Tokens(input), JSON.stringify(input));
  }
  // Most inputs end inside a tag or hold a NUL-free oddity the scanner leaves to parse5; enough
  // are read that the comparison means something.
  assert.ok(read > inputs.length / 4, `read ${read} of ${inputs.length}`);
});

/** Shapes the scanner leaves to parse5, which reads each as HTML5 says. */
const DECLINED: readonly [string, string][] = [
  ["a NUL", "<p>a\0b</p>"],
  ["a processing instruction", "<?xml version='1.0'?><p>a</p>"],
  ["a CDATA section", "<svg><![CDATA[a<b]]></svg>"],
  ["a bogus comment", "<!x><p>a</p>"],
  ["an end tag without a name", "<p>a</>b</p>"],
  ["an end tag opening a bogus comment", "<p>a</ b></p>"],
  ["the item ending inside a tag", "<p>a</p><a href='x"],
  ["the item ending inside a comment", "<p>a</p><!-- open"],
  ["the item ending inside a doctype", "<!DOCTYPE html"],
  ["a non-ASCII tag name", "<pé>a</pé>"],
  ["a non-ASCII attribute name", "<p dätä=1>a</p>"],
  ["a repeated attribute", "<p class=a class=notranslate>a</p>"],
  [
    "a tag with more than 64 attributes",
    `<p ${Array.from({ length: 65 }, (_, i) => `a${i}`).join(" ")}>a</p>`,
  ],
  ["an entity in a class", "<p class='a&#32;notranslate'>a</p>"],
  ["an entity in translate", "<p translate='&#110;o'>a</p>"],
  ["an escaped script", "<script><!-- if (a</script>b) --></script><p>c</p>"],
];

Deno.test("the scanner declines the shapes it leaves to parse5", async (t) => {
  for (const [name, source] of DECLINED) {
    await t.step(name, () => {
      assert.equal(scannedTokens(source), undefined);
      assert.ok(parse5Tokens(source).length > 0);
    });
  }
});

/** Shapes at the edge of what the scanner reads: each must give parse5's tokens. */
const READ: readonly [string, string][] = [
  ["an abrupt empty comment", "<!-->a<!--->b"],
  ["a comment ended by --!>", "<!-- a --!>b"],
  ["dashes inside a comment", "<!-- a -- b --- c ---->d"],
  ["a lower-case doctype", "<!doctype html><p>a</p>"],
  [
    "a tag with 64 attributes",
    `<p ${Array.from({ length: 64 }, (_, i) => `a${i}`).join(" ")}>a</p>`,
  ],
  ["attributes in every quoting", "<img alt=\"a b\" title='c' data-x=y/ hidden>"],
  ["a missing value", "<p title=>a</p>"],
  ["a value next to the next name", '<p b="c"d=e title="t">a</p>'],
  ["a solidus between attributes", "<p a / b>c</p>"],
  ["CR and CRLF in a class", "<p class='a\r\nnotranslate\rb'>c</p>"],
  ["an upper-case tag and attribute", "<P TITLE=x>a</P>"],
  ["an end tag with attributes", "<p>a</p title='>'>b"],
  ["a style with a false end tag", "<style>a</styles></style >b"],
  ["a title with markup inside", "<title>a <b>c</b></TITLE>d"],
  ["a script without an end tag", "<script>a < b"],
  ["plaintext", "<plaintext>a </plaintext> <p>b"],
  ["a self-closing foreign element", "<svg><circle/><style>a</style></svg><p>b</p>"],
  ["a stray `<`", "<p>1 < 2 and 3 <4</p>"],
  ["entities in text and in other attributes", "<a href='?a=1&amp;b'>a &amp; b</a>"],
];

Deno.test("the scanner reads the edges of its shapes as parse5 does", async (t) => {
  for (const [name, source] of READ) {
    await t.step(name, () => {
      const scanned = scannedTokens(source);
      assert.ok(scanned, "declined");
      assert.deepEqual(scanned, parse5Tokens(source));
    });
  }
});
