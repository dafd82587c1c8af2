import assert from "node:assert/strict";
import { textFormat } from "../../../translation/formats/text.ts";
import { dropPlaceholders, translateItem, upperCase } from "../../support/format_engines.ts";

Deno.test("text keeps outer white space out of the engine", async () => {
  const result = await translateItem(textFormat, "  Hello world \n", upperCase);
  assert.deepEqual(result.sent, ["Hello world"]);
  assert.equal(result.text, "  HELLO WORLD \n");
});

Deno.test("preserve_formatting sends each line on its own", async () => {
  const result = await translateItem(textFormat, "One\n  two\r\n\nthree", upperCase, {
    preserveFormatting: true,
  });
  assert.deepEqual(result.sent, ["One", "two", "three"]);
  assert.equal(result.text, "ONE\n  TWO\r\n\nTHREE");
});

Deno.test("document mode translates paragraphs as units and keeps the blank lines", async () => {
  const text = "First paragraph\nstill first.\n\n\nSecond one.\n \nThird.";
  const result = await translateItem(textFormat, text, upperCase, { mode: "document" });
  assert.deepEqual(result.sent, ["First paragraph\nstill first.", "Second one.", "Third."]);
  assert.equal(result.text, text.toUpperCase());
});

Deno.test("message mode keeps URLs, e-mails, mentions, hashtags, emoji and shortcodes", async () => {
  const text = "@ana see https://x.org/Path?q=1 or mail Bob@X.io #Launch 🎉 :tada:";
  const result = await translateItem(textFormat, text, upperCase, { mode: "message" });
  assert.deepEqual(result.sent, ["<x1/> see <x2/> or mail <x3/> <x4/> <x5/> <x6/>"]);
  assert.equal(result.text, "@ana SEE https://x.org/Path?q=1 OR MAIL Bob@X.io #Launch 🎉 :tada:");
  const broken = await translateItem(textFormat, text, dropPlaceholders, { mode: "message" });
  assert.equal(broken.text, "@ana SEE https://x.org/Path?q=1 OR MAIL Bob@X.io #Launch 🎉 :tada:");
});

Deno.test("webpage mode sends identical segments once", async () => {
  const result = await translateItem(textFormat, "Same", upperCase, { mode: "webpage" });
  assert.deepEqual(result.sent, ["Same"]);
});

Deno.test("message mode keeps a message's line breaks", async () => {
  const result = await translateItem(textFormat, "first line\n\nsecond line", dropPlaceholders, {
    mode: "message",
  });
  assert.equal(result.text, "FIRST LINE\n\nSECOND LINE");
});

Deno.test("document mode: an engine's blank lines never add a paragraph", async () => {
  const text = "Para one.\n\nPara two\nwith a second line.\n";
  const result = await translateItem(textFormat, text, (t) => t.replace(/ /g, "\n\n"), {
    mode: "document",
  });
  assert.equal(result.text, "Para\none.\n\nPara\ntwo\nwith\na\nsecond\nline.\n");
  // Blank as readers see them: CR alone, a line of a no-break or ideographic space.
  for (const blank of ["\r\r", "\n\u00a0\n", "\r\n\u3000\r\n"]) {
    const answer = await translateItem(
      textFormat,
      "One.\n\nTwo words.\n",
      (t) => t.replace(" ", blank),
      { mode: "document" },
    );
    assert.equal(answer.text, `One.\n\nTwo${blank.startsWith("\r\n") ? "\r\n" : blank[0]}words.\n`);
  }
});

Deno.test("an item that is one URL or e-mail address is not sent in any mode", async () => {
  for (const text of ["https://example.com/a?b=1", "  www.example.org ", "ana@example.org"]) {
    for (const mode of ["paragraph", "document", "selection"]) {
      const result = await translateItem(textFormat, text, upperCase, { mode });
      assert.deepEqual(result.sent, [], `${mode}: ${text}`);
      assert.equal(result.text, text);
    }
  }
  // A sentence around one is translated as before.
  const sentence = await translateItem(textFormat, "Read https://example.com now", upperCase);
  assert.deepEqual(sentence.sent, ["Read https://example.com now"]);
});
