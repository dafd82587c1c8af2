/**
 * Markdown from notes apps (Obsidian, Logseq, Bear) over HTTP: their syntax on top of GFM stays
 * as written and keeps working in the app, while the text around it is translated.
 */
import assert from "node:assert/strict";
import { translateThrough, translateUpperCased } from "../../support/format_requests.ts";

const MARKDOWN = { format: "markdown", mode: "document" };

Deno.test("markdown: an Obsidian callout's type and fold mark stay as written, its title and body translated", async () => {
  // Only GitHub's five alert names were kept: '[!info]- Collapsed title' was sent whole and
  // came back '\[!INFO\]- …', and '[!tip]+' lost its fold mark to '\+': no callout either.
  const item = "> [!info]- Collapsed *title*\n> Body of callout.\n\n> [!tip]+\n> Open.\n\n" +
    "> [!my-type] Title\n> Body.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, [
    "Collapsed <x1>title</x1><x2/>Body of callout.",
    "Open.",
    "Title<x1/>Body.",
  ]);
  assert.equal(
    texts[0],
    "> [!info]- COLLAPSED *TITLE*\n> BODY OF CALLOUT.\n\n> [!tip]+\n> OPEN.\n\n" +
      "> [!my-type] TITLE\n> BODY.\n",
  );
  const { texts: echoed } = await translateThrough([item], MARKDOWN, (text) => text);
  assert.deepEqual(echoed, [item]);
});

Deno.test("markdown: a tag starting a paragraph's line gets no backslash: it is no heading", async () => {
  // '#tag' is no ATX heading (that needs a space after its '#'s), yet a changed line starting
  // with it was written '\#TAG': in Obsidian or Bear the tag was a tag no more.
  const item = "Notes for today\n#tag at start\n\n#5 is no heading either\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["Notes for today<x1/>#tag at start", "#5 is no heading either"]);
  assert.equal(texts[0], "NOTES FOR TODAY\n#TAG AT START\n\n#5 IS NO HEADING EITHER\n");
});

Deno.test("markdown: an engine's '# ' starting a line is still escaped, else it would be a heading", async () => {
  const item = "First line\nsecond line\n";
  const { texts } = await translateThrough(
    [item],
    MARKDOWN,
    (text) => text.replace("second", "# second"),
  );
  assert.equal(texts[0], "First line\n\\# second line\n");
});

Deno.test("markdown: a line starting with a mark that opens no block gets no backslash", async () => {
  // A list marker needs white space after it and a setext underline a line of '='s alone, yet
  // '==Highlight==' (Obsidian's), '+tag', '-flag' and '2.5' starting a changed line were written
  // '\==', '\+', '\-', '2\.5': the highlight showed its marks, and the bytes changed for nothing.
  const item = "==Highlighted== line.\n\nText\n+tag line\n-flag here\n2.5 million\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, [
    "==Highlighted== line.",
    "Text<x1/>+tag line<x2/>-flag here<x3/>2.5 million",
  ]);
  assert.equal(texts[0], "==HIGHLIGHTED== LINE.\n\nTEXT\n+TAG LINE\n-FLAG HERE\n2.5 MILLION\n");
});

Deno.test("markdown: an engine's list marker, underline or numbered line starting a line is escaped", async () => {
  const item = "First line\nsecond line\n";
  const answers = ["- second", "+ second", "1. second", "1) second", "==\n", "---\n", "> second"];
  const expected = [
    "\\- second",
    "\\+ second",
    "1\\. second",
    "1\\) second",
    "\\==",
    "\\---",
    "\\> second",
  ];
  for (const [index, answer] of answers.entries()) {
    const { texts } = await translateThrough(
      [item],
      MARKDOWN,
      (text) =>
        text.replace(/second line$/, answer.endsWith("\n") ? answer.trimEnd() : `${answer} line`),
    );
    const tail = answer.endsWith("\n") ? "" : " line";
    assert.equal(texts[0], `First line\n${expected[index]}${tail}\n`, answer);
  }
});
