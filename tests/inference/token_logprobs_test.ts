import assert from "node:assert/strict";
import { rankLogits, tokenLogprob } from "../../inference/token_logprobs.ts";

const CASES: Array<{ name: string; logits: number[]; top: number; ranked: number[] }> = [
  { name: "no alternatives asked", logits: [1, 2, 3], top: 0, ranked: [] },
  { name: "the two likeliest, likeliest first", logits: [1, 3, 2, 0], top: 2, ranked: [1, 2] },
  { name: "ties keep the lower id first", logits: [2, 5, 5, 1], top: 3, ranked: [1, 2, 0] },
  { name: "more asked than the vocabulary holds", logits: [0, 1], top: 5, ranked: [1, 0] },
  { name: "negative logits", logits: [-9, -1, -5], top: 2, ranked: [1, 2] },
];

for (const { name, logits, top, ranked } of CASES) {
  Deno.test(`rankLogits: ${name}`, () => {
    const ranks = rankLogits(new Float32Array(logits), top);
    assert.deepEqual(ranks.top.map((entry) => entry.token), ranked);
    const total = logits.reduce((sum, _, token) => sum + Math.exp(ranks.logprobOf(token)), 0);
    assert.ok(Math.abs(total - 1) < 1e-6, `probabilities sum to ${total}`);
  });
}

Deno.test("rankLogits: huge logits do not overflow", () => {
  const ranks = rankLogits(new Float32Array([1e30, 1e30, -1e30]), 1);
  assert.ok(Math.abs(ranks.logprobOf(0) - Math.log(0.5)) < 1e-6);
  assert.ok(ranks.logprobOf(2) < -1e29);
});

Deno.test("tokenLogprob spells a part of a character as U+FFFD and keeps its bytes", () => {
  const pieces: Record<number, number[]> = { 0: [0xE2, 0x82], 1: [0x61] };
  const entry = tokenLogprob(
    rankLogits(new Float32Array([0, Math.log(3)]), 1),
    0,
    (token) => new Uint8Array(pieces[token]),
  );
  assert.equal(entry.text, "\uFFFD");
  assert.deepEqual(entry.bytes, [0xE2, 0x82]);
  assert.ok(Math.abs(entry.logprob - Math.log(0.25)) < 1e-6);
  assert.deepEqual(entry.top.map((t) => t.text), ["a"]);
});
