import assert from "node:assert/strict";
import { readableText } from "../../detection/readable_text.ts";

/** What detection reads of a text: protected spans (hashtags too) blanked, words kept. */
const CASES: ReadonlyArray<readonly [string, string]> = [
  ["@user你好", " 你好"],
  ["看看https://x.com", "看看 "],
  ["请发邮件test@x.com谢谢", "请发邮件 谢谢"],
  ["Run `npm install` now", "Run   now"],
  ["#寿司 is great", "  is great"],
  ["merci beaucoup #release_notes", "merci beaucoup  "],
  ["plain words only", "plain words only"],
];

for (const [text, readable] of CASES) {
  Deno.test(`readableText reads ${JSON.stringify(text)} as ${JSON.stringify(readable)}`, () => {
    assert.equal(readableText(text), readable);
  });
}
