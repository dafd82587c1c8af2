/**
 * A change of Chinese script only (zh-Hans ↔ zh-Hant) is a table lookup, not model work; it
 * changes what a translation would change and keeps what a format keeps byte for byte.
 */
import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { postTranslate, withTranslationService } from "../../support/translation_service.ts";

/** Each case: a Simplified item, its request fields and what must come back. */
const CASES = [
  {
    name: "html: attributes that are not text, code, comments and addresses are kept",
    fields: { format: "html" },
    text: '<p data-note="简体">这是简体中文的说明。</p><code>const 变量 = "简体";</code>' +
      '<!-- 这里是注释 --><a href="https://zh.wikipedia.org/wiki/汉语" title="汉语">汉语</a>',
    expected: '<p data-note="简体">這是簡體中文的說明。</p><code>const 变量 = "简体";</code>' +
      '<!-- 这里是注释 --><a href="https://zh.wikipedia.org/wiki/汉语" title="漢語">漢語</a>',
  },
  {
    name: "markdown: code and link addresses are kept",
    fields: { format: "markdown" },
    text: "这是简体中文的说明。\n\n```\n// 这里是注释\n```\n\n[链接](https://example.com/汉语)",
    expected: "這是簡體中文的說明。\n\n```\n// 这里是注释\n```\n\n[鏈接](https://example.com/汉语)",
  },
  {
    name: "message: addresses, mentions and hashtags are kept",
    fields: { mode: "message" },
    text: "这是简体中文的说明 #简体 @用户 https://example.com/汉语",
    expected: "這是簡體中文的說明 #简体 @用户 https://example.com/汉语",
  },
  {
    name: "subtitle: a file's notes are kept",
    fields: { mode: "subtitle" },
    text: "WEBVTT\n\nNOTE 这里是注释\n\n00:00.000 --> 00:04.000\n这是简体中文的说明。\n",
    expected: "WEBVTT\n\nNOTE 这里是注释\n\n00:00.000 --> 00:04.000\n這是簡體中文的說明。\n",
  },
];

Deno.test("POST /v1/translate changes the Chinese script of what a translation would change only", async () => {
  await withTranslationService(async (service) => {
    for (const { name, fields, text, expected } of CASES) {
      const body = await expectBody(
        await postTranslate(service, { target: "zh-Hant", texts: [text], ...fields }),
        200,
        TranslateResponseSchema,
      );
      assert.equal(body.results[0].detected_source, "zh-Hans", name);
      assert.equal(body.engine, "passthrough", name);
      assert.equal(body.results[0].text, expected, name);
    }
  });
});
