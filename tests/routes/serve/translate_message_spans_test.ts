/**
 * Chat messages in `message` mode over HTTP: what a chat app shows as code, an address or an
 * emoji comes back byte for byte, and every word a reader sees reaches the engine.
 */
import assert from "node:assert/strict";
import { translateUpperCased } from "../../support/format_requests.ts";

async function translateMessage(message: string) {
  const { texts, sent } = await translateUpperCased([message], { mode: "message" });
  return { text: texts[0], sent };
}

Deno.test("message mode keeps inline code and code blocks as written", async () => {
  const message = "Run `npm install --save left-pad` then:\n```\ndeno task dev\n```\nand wait";
  const { text, sent } = await translateMessage(message);
  assert.deepEqual(sent, ["Run <x1/> then:<x2/>and wait"]);
  assert.equal(
    text,
    "RUN `npm install --save left-pad` THEN:\n```\ndeno task dev\n```\nAND WAIT",
  );
});

Deno.test("message mode keeps the :-1: shortcode", async () => {
  const { text, sent } = await translateMessage("Sorry :-1: from me, :+1: from her");
  assert.deepEqual(sent, ["Sorry <x1/> from me, <x2/> from her"]);
  assert.equal(text, "SORRY :-1: FROM ME, :+1: FROM HER");
});

Deno.test("message mode keeps a mailto: address whole", async () => {
  const { text, sent } = await translateMessage("Write mailto:bob@example.com today.");
  assert.deepEqual(sent, ["Write <x1/> today."]);
  assert.equal(text, "WRITE mailto:bob@example.com TODAY.");
});

Deno.test("message mode translates the label of a Slack link and keeps its address", async () => {
  const message = "See <https://example.com/q3|the quarterly report> and <#C024BE7LR|general>.";
  const { text, sent } = await translateMessage(message);
  assert.deepEqual(sent, ["See <x1/>the quarterly report<x2/> and <x3/>."]);
  assert.equal(
    text,
    "SEE <https://example.com/q3|THE QUARTERLY REPORT> AND <#C024BE7LR|general>.",
  );
});
