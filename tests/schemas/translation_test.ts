import assert from "node:assert/strict";
import { countCodePoints, TranslateOptionsSchema } from "../../schemas/translation.ts";

const COUNTS = [
  { name: "no surrogate", text: "Grüße, 東京", count: 9 },
  { name: "a pair", text: "a😀b", count: 3 },
  { name: "a lone high surrogate at the end", text: "a\ud83d", count: 2 },
  { name: "a lone high surrogate before text", text: "\ud83dab", count: 3 },
  { name: "a lone low surrogate", text: "a\ude00", count: 2 },
  { name: "two pairs in a row", text: "😀😀", count: 2 },
];

for (const { name, text, count } of COUNTS) {
  Deno.test(`countCodePoints counts as for…of does: ${name}`, () => {
    assert.equal(countCodePoints(text), count);
    assert.equal(countCodePoints(text), [...text].length);
  });
}

/** The hints to LLM engines share one bound, in code points (an emoji is one). */
const HINT_BOUNDS = [
  { name: "a 300-character tone", options: { tone: "😀".repeat(300) }, refused: undefined },
  { name: "a 301-character tone", options: { tone: "😀".repeat(301) }, refused: "tone" },
  { name: "a 300-character domain", options: { domain: "é".repeat(300) }, refused: undefined },
  { name: "a 301-character domain", options: { domain: "é".repeat(301) }, refused: "domain" },
  { name: "a 300-character instruction", options: { instructions: ["a".repeat(300)] } },
  {
    name: "a 301-character instruction",
    options: { instructions: ["a".repeat(301)] },
    refused: "instructions",
  },
];

for (const { name, options, refused } of HINT_BOUNDS) {
  Deno.test(`TranslateOptionsSchema ${refused ? "refuses" : "accepts"} ${name}`, () => {
    const parsed = TranslateOptionsSchema.safeParse(options);
    assert.equal(parsed.success, refused === undefined);
    if (refused) assert.equal(parsed.error?.issues[0].path[0], refused);
  });
}
