import assert from "node:assert/strict";
import { countCodePoints } from "../../schemas/translation.ts";

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
