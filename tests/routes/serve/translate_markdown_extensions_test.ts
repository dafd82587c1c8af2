/**
 * Markdown extension syntax over HTTP (markdown_extensions.ts): heading attributes, wiki links
 * and container directive fences are kept byte for byte, never sent as words, while the text
 * around and inside them is translated.
 */
import assert from "node:assert/strict";
import { upperCase } from "../../support/format_engines.ts";
import { translateThrough, translateUpperCased } from "../../support/format_requests.ts";

const MARKDOWN = { format: "markdown", mode: "document" };

Deno.test("markdown: a heading's attribute block stays as written, outside the text sent", async () => {
  // 'Title {#custom-id}' was sent, and came back as '{#CUSTOM-ID}': every link to it broke.
  const item = '## Title {#custom-id}\n\n# Intro {#intro .big data-x="a b"} ##\n\n' +
    "Setext {-}\n======\n\n![A cat](cat.png){width=50%} sits {.red} here.\n{: .note}\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, [
    "Title",
    "Intro",
    "Setext",
    "<x1>A cat</x1><x2/> sits <x3/> here.",
  ]);
  assert.equal(
    texts[0],
    '## TITLE {#custom-id}\n\n# INTRO {#intro .big data-x="a b"} ##\n\n' +
      "SETEXT {-}\n======\n\n![A CAT](cat.png){width=50%} SITS {.red} HERE.\n{: .note}\n",
  );
});

Deno.test("markdown: a wiki link is kept whole, not escaped into brackets", async () => {
  // '[[Page Name]]' went to the engine and came back escaped: '\[\[PAGE NAME\]\]'.
  const item = "See [[Page Name]] and ![[diagram.png]] for *more*.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["See <x1/> and <x2/> for <x3>more</x3>."]);
  assert.equal(texts[0], "SEE [[Page Name]] AND ![[diagram.png]] FOR *MORE*.\n");
});

Deno.test("markdown: directive fences stay as written lines while the text inside is translated", async () => {
  // ':::note' was text of the paragraph under it: sent, upper-cased, or moved by the engine.
  const item = ":::note\nSome *text* here.\n:::\n\n:::tip Read this\n\n- One item\n\n:::\n\n" +
    "> :::warning\n> Careful now.\n> :::\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  // The title after the fence is text (translate_markdown_extension_text_test.ts).
  assert.deepEqual(sent, ["Some <x1>text</x1> here.", "Read this", "One item", "Careful now."]);
  assert.equal(
    texts[0],
    ":::note\nSOME *TEXT* HERE.\n:::\n\n:::tip READ THIS\n\n- ONE ITEM\n\n:::\n\n" +
      "> :::warning\n> CAREFUL NOW.\n> :::\n",
  );
  // An engine that moves the line break it was given cannot move a fence: none is sent.
  const moved = await translateThrough(
    [":::note\nFirst line\nsecond line.\n:::\n"],
    MARKDOWN,
    (text) => upperCase(text.replace(/^(.*)(<x1\/>)(.*)$/, "$3 $1$2")),
  );
  assert.equal(moved.texts[0], ":::note\nSECOND LINE. FIRST LINE\n:::\n");
});

Deno.test("markdown: MkDocs admonitions, definition markers and template tags stay as written", async () => {
  // `!!! note "Custom title"` went to the engine with its body ('!!! NOTE …'; its title alone is
  // sent now), a definition's `: ` came back escaped, and '{{ config.site_name }}' was translated as words.
  const item = '!!! note "Custom title"\n    An admonition with *emphasis*.\n\n' +
    "???+ tip\n    Collapsible.\n\nTerm\n: Definition of the term.\n\n" +
    "{{ config.site_name }} uses {% include 'x.md' %} and {{< hint info >}}Hugo{{< /hint >}}.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, [
    "Custom title",
    "An admonition with <x1>emphasis</x1>.",
    "Collapsible.",
    "Term<x1/>Definition of the term.",
    "<x1/> uses <x2/> and <x3/>Hugo<x4/>.",
  ]);
  assert.equal(
    texts[0],
    '!!! note "CUSTOM TITLE"\n    AN ADMONITION WITH *EMPHASIS*.\n\n' +
      "???+ tip\n    COLLAPSIBLE.\n\nTERM\n: DEFINITION OF THE TERM.\n\n" +
      "{{ config.site_name }} USES {% include 'x.md' %} AND {{< hint info >}}HUGO{{< /hint >}}.\n",
  );
});

Deno.test("markdown: a colon after inline syntax is punctuation, not a definition marker", async () => {
  // After an autolink or inline code, the run went on with ': ' read as a definition's marker:
  // kept from the engine by micromark's cut (runs split at the link) and sent by the scanner's.
  const item = "See http://x.org: the docs.\n\nRun `make`:\tthen wait.\n\nTerm\n\n: A loose one.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, [
    "See <x1/>: the docs.",
    "Run <x1/>:\tthen wait.",
    "Term",
    "<x1/>A loose one.",
  ]);
  assert.equal(
    texts[0],
    "SEE http://x.org: THE DOCS.\n\nRUN `make`:\tTHEN WAIT.\n\nTERM\n\n: A LOOSE ONE.\n",
  );
});
