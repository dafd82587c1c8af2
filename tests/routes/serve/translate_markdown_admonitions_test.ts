/**
 * MkDocs' admonitions (Python-Markdown's `!!!`, pymdownx's `???`) over HTTP where they stand
 * inside list items and block quotes, and with the types Python-Markdown accepts: their
 * indented bodies are Markdown (translated), not code, and every marker, prefix and indent
 * comes back as written.
 */
import assert from "node:assert/strict";
import { translateThrough, translateUpperCased } from "../../support/format_requests.ts";

const MARKDOWN = { format: "markdown", mode: "document" };

/** Every item comes back byte for byte through an engine that echoes what it is sent. */
async function assertEchoed(items: string[]): Promise<void> {
  const { texts } = await translateThrough(items, MARKDOWN, (text) => text);
  assert.deepEqual(texts, items);
}

Deno.test("markdown: an admonition's indented body inside a list item is translated", async () => {
  // To CommonMark the body under `    !!! note` in an item is the item's indented code: it was
  // never sent, while MkDocs renders it as the admonition's text.
  const item = '1. Install it.\n\n    !!! note "Heads up"\n\n        Body *text* here.\n\n' +
    "            code stays\n\n        - inner item\n\n2. Run it.\n\n" +
    "- !!! tip\n\n          Tip body.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, [
    "Install it.",
    "Heads up",
    "Body <x1>text</x1> here.",
    "inner item",
    "Run it.",
    "Tip body.",
  ]);
  assert.equal(
    texts[0],
    '1. INSTALL IT.\n\n    !!! note "HEADS UP"\n\n        BODY *TEXT* HERE.\n\n' +
      "            code stays\n\n        - INNER ITEM\n\n2. RUN IT.\n\n" +
      "- !!! tip\n\n          TIP BODY.\n",
  );
  await assertEchoed([item]);
});

Deno.test("markdown: an admonition's indented body inside a block quote is translated", async () => {
  const item = '> !!! warning "Careful"\n>\n>     Quoted *body*.\n>\n>         code stays\n' +
    ">\n>     Second.\n\nAfter.\n\n> > ??? info\n> >\n> >     Deep body.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, [
    "Careful",
    "Quoted <x1>body</x1>.",
    "Second.",
    "After.",
    "Deep body.",
  ]);
  assert.equal(
    texts[0],
    '> !!! warning "CAREFUL"\n>\n>     QUOTED *BODY*.\n>\n>         code stays\n' +
      ">\n>     SECOND.\n\nAFTER.\n\n> > ??? info\n> >\n> >     DEEP BODY.\n",
  );
  await assertEchoed([item]);
});

Deno.test("markdown: code under a list item's or quote's plain paragraph stays code", async () => {
  // Only an admonition's line makes the indented block under it Markdown.
  const item = "- Run:\n\n      make all\n\n> Then:\n>\n>     make test\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Run:", "Then:"]);
  assert.equal(texts[0], "- RUN:\n\n      make all\n\n> THEN:\n>\n>     make test\n");
});

Deno.test("markdown: an admonition's type is any word, as Python-Markdown reads it", async () => {
  // Python-Markdown's type is a CSS class (`[\w-]+`, lower-cased): `!!! Note` and `!!!tip` are
  // admonitions, their lines kept and their bodies translated; a line with other characters
  // after `!!!` (`!!! Warning: …`) or two spaces before the type is a sentence.
  const item = '!!! Note "Capital"\n\n    Body one.\n\n!!! DANGER\n\n    Body two.\n\n' +
    "!!!tip\n\n    Body three.\n\n!!! Übersicht\n\n    Body four.\n\n" +
    "!!! Warning: do not run this\n\n    rm -rf /\n\n!!!  spaced\n\n    make clean\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, [
    "Capital",
    "Body one.",
    "Body two.",
    "Body three.",
    "Body four.",
    "!!! Warning: do not run this",
    "!!!  spaced",
  ]);
  assert.equal(
    texts[0],
    '!!! Note "CAPITAL"\n\n    BODY ONE.\n\n!!! DANGER\n\n    BODY TWO.\n\n' +
      "!!!tip\n\n    BODY THREE.\n\n!!! Übersicht\n\n    BODY FOUR.\n\n" +
      "!!! WARNING: DO NOT RUN THIS\n\n    rm -rf /\n\n!!!  SPACED\n\n    make clean\n",
  );
  await assertEchoed([item]);
});
