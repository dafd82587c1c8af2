/**
 * Markdown shapes over HTTP: each item goes through the real service with an engine that
 * upper-cases what it is given, so the whole output is compared byte for byte and every text
 * that reached the engine is seen.
 */
import assert from "node:assert/strict";
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
