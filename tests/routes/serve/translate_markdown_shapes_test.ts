/**
 * Markdown shapes over HTTP: each item goes through the real service with an engine that
 * upper-cases what it is given, so the whole output is compared byte for byte and every text
 * that reached the engine is seen.
 */
import assert from "node:assert/strict";
import { translateUpperCased } from "../../support/format_requests.ts";

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
