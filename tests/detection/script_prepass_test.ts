import assert from "node:assert/strict";
import { scriptOf, takeScriptCensus } from "../../detection/script_prepass.ts";

const SCRIPT_CASES: ReadonlyArray<readonly [string, string | undefined]> = [
  ["a", "latin"],
  ["ệ", "latin"],
  ["ก", "thai"],
  ["ກ", "lao"],
  ["ក", "khmer"],
  ["က", "myanmar"],
  ["한", "hangul"],
  ["か", "kana"],
  ["カ", "kana"],
  ["・", undefined],
  ["漢", "han"],
  ["々", "han"],
  ["я", "cyrillic"],
  ["7", undefined],
  ["😀", undefined],
  [" ", undefined],
];

for (const [char, script] of SCRIPT_CASES) {
  Deno.test(`scriptOf classifies ${JSON.stringify(char)} as ${script ?? "no letter"}`, () => {
    assert.equal(scriptOf(char.codePointAt(0)!), script);
  });
}

Deno.test("takeScriptCensus counts letters per script and finds the dominant one", () => {
  const census = takeScriptCensus("Hi ไทย!");
  assert.equal(census.letters, 5);
  assert.deepEqual(census.counts, { latin: 2, thai: 3 });
  assert.equal(census.dominant, "thai");
});

Deno.test("takeScriptCensus finds no letters in digits, emoji and punctuation", () => {
  assert.deepEqual(takeScriptCensus("12 😀 ?!"), { counts: {}, letters: 0, dominant: undefined });
});

Deno.test("takeScriptCensus counts combining marks for their script but not as letters", () => {
  assert.equal(takeScriptCensus("\u0300").letters, 0);
  assert.equal(takeScriptCensus("\u0300\u0301").letters, 0);
  assert.equal(takeScriptCensus("e\u0300").letters, 1);
});
