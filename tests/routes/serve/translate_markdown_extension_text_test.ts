/**
 * Text that Markdown extensions hold, over HTTP (markdown_extensions.ts): a bracketed span's
 * text, an abbreviation's definition, a directive's or admonition's title, an admonition's body
 * after a blank line are translated while their syntax stays as written; `:shortcodes:` are
 * never sent as words.
 */
import assert from "node:assert/strict";
import { translateThrough, translateUpperCased } from "../../support/format_requests.ts";

const MARKDOWN = { format: "markdown", mode: "document" };

/** Every item comes back byte for byte through an engine that echoes what it is sent. */
async function assertEchoed(items: string[]): Promise<void> {
  const { texts } = await translateThrough(items, MARKDOWN, (text) => text);
  assert.deepEqual(texts, items);
}

Deno.test("markdown: a bracketed span keeps its brackets and attributes, its text translated", async () => {
  // '[text]{.class}' (Pandoc, kramdown) came back as '\[TEXT\]{.class}': a span no more.
  const item = "A [bracketed span]{.smallcaps} here and [x]{#id lang=fr}.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["A <x1>bracketed span</x1> here and <x2>x</x2>."]);
  assert.equal(texts[0], "A [BRACKETED SPAN]{.smallcaps} HERE AND [X]{#id lang=fr}.\n");
  await assertEchoed([item]);
});

Deno.test("markdown: an abbreviation's key stays as written, its definition is translated", async () => {
  // '*[HTML]: Hyper Text …' was a paragraph's text: it came back '\*\[HTML\]: HYPER TEXT …',
  // no abbreviation left.
  const item = "*[HTML]: Hyper Text Markup Language\n*[W3C]:  World Wide Web Consortium\n\n" +
    "The HTML spec.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, [
    "Hyper Text Markup Language<x1/>World Wide Web Consortium",
    "The HTML spec.",
  ]);
  assert.equal(
    texts[0],
    "*[HTML]: HYPER TEXT MARKUP LANGUAGE\n*[W3C]:  WORLD WIDE WEB CONSORTIUM\n\nTHE HTML SPEC.\n",
  );
  await assertEchoed([item]);
});

Deno.test("markdown: emoji shortcodes are kept whole, not sent as words", async () => {
  // ':rocket:' reached the engine as a word outside message mode and came back ':ROCKET:'.
  const item = "Launch :rocket: now :tada::tada: at 10:30:00, ratio 1:2.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Launch <x1/> now <x2/> at 10:30:00, ratio 1:2."]);
  assert.equal(texts[0], "LAUNCH :rocket: NOW :tada::tada: AT 10:30:00, RATIO 1:2.\n");
});

Deno.test("markdown: directive, admonition and tab titles are translated, their markers kept", async () => {
  // ':::tip My title' and '!!! warning "Be careful"' stayed in English above translated text.
  const item = ":::tip My title\nBody text.\n:::\n\n:::note[Read this]\n\n- item\n\n:::\n\n" +
    '!!! warning "Be careful"\n    Body.\n\n=== "First tab"\n    Tab body.\n\n' +
    '!!! note ""\n    No title.\n\n:::details{open}\nKept.\n:::\n';
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, [
    "My title",
    "Body text.",
    "Read this",
    "item",
    "Be careful",
    "Body.",
    "First tab",
    "Tab body.",
    "No title.",
    "Kept.",
  ]);
  assert.equal(
    texts[0],
    ":::tip MY TITLE\nBODY TEXT.\n:::\n\n:::note[READ THIS]\n\n- ITEM\n\n:::\n\n" +
      '!!! warning "BE CAREFUL"\n    BODY.\n\n=== "FIRST TAB"\n    TAB BODY.\n\n' +
      '!!! note ""\n    NO TITLE.\n\n:::details{open}\nKEPT.\n:::\n',
  );
  await assertEchoed([item]);
});

Deno.test("markdown: an admonition's or tab's indented body after a blank line is translated", async () => {
  // To CommonMark the body is indented code; MkDocs renders it as the admonition's text.
  const item = '!!! note "Title"\n\n    Body *text* here.\n\n        code stays\n\n' +
    '    - item one\n\n??? tip\n    First.\n\n    Second.\n\n=== "Tab"\n\n' +
    "    Tab text.\n\n    ```sh\n    run me\n    ```\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, [
    "Title",
    "Body <x1>text</x1> here.",
    "item one",
    "First.",
    "Second.",
    "Tab",
    "Tab text.",
  ]);
  assert.equal(
    texts[0],
    '!!! note "TITLE"\n\n    BODY *TEXT* HERE.\n\n        code stays\n\n' +
      '    - ITEM ONE\n\n??? tip\n    FIRST.\n\n    SECOND.\n\n=== "TAB"\n\n' +
      "    TAB TEXT.\n\n    ```sh\n    run me\n    ```\n",
  );
  await assertEchoed([item]);
});

Deno.test("markdown: indented code after a line that only looks like an admonition stays code", async () => {
  // A README's shouting paragraph is no admonition: the command under it is code. (`!!! WARNING`
  // alone is one: Python-Markdown takes any word for its type.)
  const item =
    "!!! Warning: do not run this\n\n    rm -rf /\n\n!!! WARNING !!!\n\n    make clean\n\n" +
    "Text\n!!! note\n\n    still code\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["!!! Warning: do not run this", "!!! WARNING !!!", "Text"]);
  assert.equal(
    texts[0],
    "!!! WARNING: DO NOT RUN THIS\n\n    rm -rf /\n\n!!! WARNING !!!\n\n    make clean\n\n" +
      "TEXT\n!!! note\n\n    still code\n",
  );
});

Deno.test("markdown: a fence line whose title holds emphasis is translated once, its emphasis as markup", async () => {
  // Its title was a segment of its own and the paragraph kept the line too: it came back twice.
  // Then the fences stayed in the paragraph as placeholders; now the title is read inline.
  const item = ":::tip Caf&eacute; *bold*\nBody.\n:::\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Café <x1>bold</x1>", "Body."]);
  assert.equal(texts[0], ":::tip CAFÉ *BOLD*\nBODY.\n:::\n");
  await assertEchoed([item]);
});

Deno.test("markdown: a definition's indented paragraphs after a blank line are translated", async () => {
  // To CommonMark they are indented code; Pandoc, PHP Markdown Extra and MkDocs' def_list read
  // them as the definition's further paragraphs: they were never sent.
  const item = "Apple\n:   A fruit.\n\n    Its second *paragraph*.\n\n        code stays\n\n" +
    "Term\n\n:   Definition.\n\n    More text.\n\nPlain\n\n    code too\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, [
    "Apple<x1/>A fruit.",
    "Its second <x1>paragraph</x1>.",
    "Term",
    "<x1/>Definition.",
    "More text.",
    "Plain",
  ]);
  assert.equal(
    texts[0],
    "APPLE\n:   A FRUIT.\n\n    ITS SECOND *PARAGRAPH*.\n\n        code stays\n\n" +
      "TERM\n\n:   DEFINITION.\n\n    MORE TEXT.\n\nPLAIN\n\n    code too\n",
  );
  await assertEchoed([item]);
});
