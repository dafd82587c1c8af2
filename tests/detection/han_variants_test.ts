import assert from "node:assert/strict";
import { classifyHan } from "../../detection/han_variants.ts";

const VARIANT_CASES: ReadonlyArray<readonly [string, string]> = [
  ["这个问题很难", "zh-Hans"],
  ["這個問題很難", "zh-Hant"],
  ["駅前", "ja"],
  ["人々", "ja"],
  // 産 is the Japanese form; Traditional Chinese writes 產.
  ["生産", "ja"],
  // 装 matches Simplified and 備 matches Traditional: only Japanese writes both.
  ["装備", "ja"],
];

for (const [text, language] of VARIANT_CASES) {
  Deno.test(`classifyHan reads ${text} as ${language}`, () => {
    assert.equal(classifyHan(text).language, language);
  });
}

Deno.test("classifyHan gives neutral characters to Simplified with margin 0", () => {
  const verdict = classifyHan("中央");
  assert.equal(verdict.language, "zh-Hans");
  assert.equal(verdict.margin, 0);
  assert.equal(verdict.japaneseCompatible, true);
});

Deno.test("classifyHan rules Japanese out for Chinese-only simplified characters", () => {
  assert.equal(classifyHan("这里").japaneseCompatible, false);
  assert.equal(classifyHan("國會").japaneseCompatible, false);
  assert.equal(classifyHan("研究").japaneseCompatible, true);
});

Deno.test("classifyHan rules Japanese out for the Traditional form 產", () => {
  assert.equal(classifyHan("生產").japaneseCompatible, false);
  assert.equal(classifyHan("生產").language, "zh-Hant");
});
