/**
 * A prompt that cannot fit the context is refused after tokenizing about the context's worth
 * of it (inference/prompt_bound.ts): the bound's own rules, then a real daemon refusing a prompt
 * of 60,000 emoji with a lower bound rather than a count it took seconds to make.
 */
import assert from "node:assert/strict";
import { tokensBeyondContext } from "../../inference/prompt_bound.ts";
import { ErrorBodySchema } from "../../schemas/openai.ts";
import { startInferDaemon } from "../support/infer_daemon.ts";

/** A tokenizer reading one token per `perToken` code units, recording what it was given. */
function countingTokenizer(perToken: number) {
  const seen: string[] = [];
  return {
    seen,
    count: (text: string) => {
      seen.push(text);
      return Math.ceil(text.length / perToken);
    },
  };
}

Deno.test("a prompt no longer than the context in characters is left to the full count", () => {
  const tokenizer = countingTokenizer(1);
  assert.equal(
    tokensBeyondContext(["a".repeat(1000), "b".repeat(1000)], tokenizer.count, 2048),
    undefined,
  );
  assert.deepEqual(tokenizer.seen, []);
});

/** Turn counts about the context of 2048 tokens: each turn after the first is a token at least. */
const TURN_COUNTS: Array<[number, number | undefined]> = [[2049, undefined], [2050, 2049], [
  30_000,
  29_999,
]];

for (const [turns, bound] of TURN_COUNTS) {
  Deno.test(`${turns} empty turns in a context of 2048 tokens: bound ${bound}, nothing read`, () => {
    const tokenizer = countingTokenizer(1);
    assert.equal(tokensBeyondContext(Array(turns).fill(""), tokenizer.count, 2048), bound);
    assert.deepEqual(tokenizer.seen, []);
  });
}

Deno.test("a prompt beyond the context is refused after reading a few times the context", () => {
  const tokenizer = countingTokenizer(1);
  const beyond = tokensBeyondContext(["x".repeat(240_000)], tokenizer.count, 2048);
  assert.ok(beyond !== undefined && beyond > 2048, `lower bound ${beyond}`);
  const read = tokenizer.seen.reduce((sum, text) => sum + text.length, 0);
  assert.ok(read <= 4 * 2048, `tokenized ${read} characters of 240,000`);
});

Deno.test("a long prompt that may fit is not refused, whatever its length in characters", () => {
  const tokenizer = countingTokenizer(4);
  // 7,000 characters at four per token: 1,750 tokens in a context of 2,048.
  assert.equal(tokensBeyondContext(["w".repeat(7000)], tokenizer.count, 2048), undefined);
  // Just past the context plus the slack for the cut and the joins: still left to the full count.
  assert.equal(tokensBeyondContext(["w".repeat(4 * 2100)], tokenizer.count, 2048), undefined);
});

Deno.test("a prefix never ends inside a surrogate pair", () => {
  const tokenizer = countingTokenizer(1);
  tokensBeyondContext(["a" + "😀".repeat(50_000)], tokenizer.count, 2048);
  for (const prefix of tokenizer.seen) {
    assert.ok(prefix.isWellFormed(), `prefix of ${prefix.length} code units ends mid-pair`);
  }
});

Deno.test("tolk infer refuses 60,000 emoji as more than the context without counting them all", async () => {
  const daemon = await startInferDaemon();
  try {
    const response = await fetch(`${daemon.baseUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "😀".repeat(60_000) }] }),
    });
    const body = ErrorBodySchema.parse(await response.json());
    assert.equal(response.status, 400);
    assert.equal(body.error.code, "context_length_exceeded");
    assert.match(body.error.message, /the request needs more than \d+ prompt tokens/);
    // The daemon serves on: the next request is answered.
    const next = await fetch(`${daemon.baseUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], max_tokens: 2 }),
    });
    assert.equal(next.status, 200, await next.text());
  } finally {
    await daemon.stop();
  }
});
