import assert from "node:assert/strict";
import { TokenBudget } from "../../inference/token_budget.ts";

/** Pieces as `[tokens, text]`; the fake detokenizer spells token n as the letter n. */
const CASES: Array<{
  name: string;
  maxTokens: number;
  pieces: Array<[number[], string]>;
  expect: { out: Array<string | undefined>; used: number; text: string; stops: number };
}> = [
  {
    name: "pieces within the limit pass whole",
    maxTokens: 4,
    pieces: [[[0], "a"], [[1, 2], "bc"]],
    expect: { out: ["a", "bc"], used: 3, text: "abc", stops: 0 },
  },
  {
    name: "the piece that reaches the limit passes and stops the generation",
    maxTokens: 2,
    pieces: [[[0], "a"], [[1], "b"], [[2], "c"]],
    expect: { out: ["a", "b", undefined], used: 2, text: "ab", stops: 1 },
  },
  {
    name: "a piece that crosses the limit is cut to its first tokens",
    maxTokens: 4,
    pieces: [[[0, 1, 2], "abc"], [[3, 4, 5], "def"]],
    expect: { out: ["abc", "d"], used: 4, text: "abcd", stops: 1 },
  },
];

for (const { name, maxTokens, pieces, expect } of CASES) {
  Deno.test(`TokenBudget: ${name}`, () => {
    let stops = 0;
    const budget = new TokenBudget({
      maxTokens,
      detokenize: (tokens) => tokens.map((t) => String.fromCharCode(97 + t)).join(""),
      onExhausted: () => stops++,
    });
    const out = pieces.map(([tokens, text]) => budget.take(tokens, text));
    assert.deepEqual(
      { out, used: budget.used, text: budget.text, stops },
      expect,
    );
  });
}

Deno.test("TokenBudget refuses a limit below 1 at construction", () => {
  assert.throws(
    () => new TokenBudget({ maxTokens: 0, detokenize: () => "", onExhausted: () => {} }),
    RangeError,
  );
});
