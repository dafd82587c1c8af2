import assert from "node:assert/strict";
import { readableText } from "../../detection/readable_text.ts";

/** What detection reads of a text: protected spans blanked, hashtags and words kept. */
const CASES: ReadonlyArray<readonly [string, string]> = [
  ["@user你好", " 你好"],
  ["看看https://x.com", "看看 "],
  ["请发邮件test@x.com谢谢", "请发邮件 谢谢"],
  ["Run `npm install` now", "Run   now"],
  ["#寿司 is great", "#寿司 is great"],
  ["plain words only", "plain words only"],
];

for (const [text, readable] of CASES) {
  Deno.test(`readableText reads ${JSON.stringify(text)} as ${JSON.stringify(readable)}`, () => {
    assert.equal(readableText(text), readable);
  });
}
