/**
 * A Markdown document's first line over HTTP: `---` or `+++` there opens front matter only
 * where a closing fence follows; otherwise it is a thematic break (or text) and the lists,
 * block quotes and headings after it keep their structure.
 */
import assert from "node:assert/strict";
import { translateThrough, translateUpperCased } from "../../support/format_requests.ts";

const MARKDOWN = { format: "markdown", mode: "document" };

Deno.test("markdown: a thematic break on line 1 with no closing fence leaves the lists and quotes after it whole", async () => {
  // micromark's front matter attempt on `---` read on to the end looking for its closing fence,
  // and the document after it lost its containers: '- one' and '> quote' were sent as text and
  // came back as '\- ONE' and '\> QUOTE', a list and a quote no more.
  const item = "---\n\nIntro\n\n- one *a*\n- two\n\n> quote\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Intro", "one <x1>a</x1>", "two", "quote"]);
  assert.equal(texts[0], "---\n\nINTRO\n\n- ONE *A*\n- TWO\n\n> QUOTE\n");
  const { texts: echoed } = await translateThrough([item], MARKDOWN, (text) => text);
  assert.deepEqual(echoed, [item]);
});

Deno.test("markdown: a setext heading in a list item after an unclosed fence keeps its list marker", async () => {
  // Pandoc's YAML block may close with '...', which micromark does not read: the '- Heading'
  // item with its '---' underline was read as one heading, sent with its '-' and escaped back.
  const item = "---\ntitle: Doc\n...\n\n- Heading\n  ---\n\n+++\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Heading"]);
  assert.equal(texts[0].slice(texts[0].indexOf("\n\n")), "\n\n- HEADING\n  ---\n\n+++\n");
});

Deno.test("markdown: YAML front matter closed with ... stays as written", async () => {
  // Pandoc, Jekyll and Python-Markdown's meta close a YAML block with '...' as well: its keys
  // were a paragraph's text, sent and translated ('TITLE: DOC').
  const item = "---\ntitle: Doc\ntags: [a, b]\n...\n\n# Heading\n\n---\n\nText.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Heading", "Text."]);
  assert.equal(texts[0], "---\ntitle: Doc\ntags: [a, b]\n...\n\n# HEADING\n\n---\n\nTEXT.\n");
});

Deno.test("markdown: a closed front matter stays as written, TOML's too", async () => {
  const items = ["---\ntitle: Doc\n---\n\n- item\n", '+++\ntitle = "Doc"\n+++\n\n> quote\n'];
  const { texts, sent } = await translateUpperCased(items, MARKDOWN);
  assert.deepEqual(sent, ["item", "quote"]);
  assert.deepEqual(texts, [
    "---\ntitle: Doc\n---\n\n- ITEM\n",
    '+++\ntitle = "Doc"\n+++\n\n> QUOTE\n',
  ]);
});

Deno.test("markdown: a thematic break on line 1 then a blank line opens no front matter closed with ...", async () => {
  // The '...' closer is Pandoc's (and Jekyll's, Python-Markdown's meta), and Pandoc reads no
  // YAML block whose '---' a blank line follows: the prose up to a line of '...' (dialogue, a
  // pause) was kept as front matter and never translated.
  const item = "---\n\nIntro *paragraph* here.\n\nWait for it\n...\n\nMore text.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Intro <x1>paragraph</x1> here.", "Wait for it<x1/>...", "More text."]);
  assert.equal(texts[0], "---\n\nINTRO *PARAGRAPH* HERE.\n\nWAIT FOR IT\n...\n\nMORE TEXT.\n");
  const { texts: echoed } = await translateThrough([item], MARKDOWN, (text) => text);
  assert.deepEqual(echoed, [item]);
});
