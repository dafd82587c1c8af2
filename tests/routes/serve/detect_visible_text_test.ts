/**
 * Detection reads the words a reader sees: an address or @mention is no word of the text around
 * it (even glued to CJK text, as no space parts them there), a few Han characters in an English
 * sentence do not outvote its words, and a subtitle file sent outside `subtitle` mode is read by
 * its cue text, not its header and notes. Over HTTP on loopback; texts written for these tests.
 */
import assert from "node:assert/strict";
import { DetectResponseSchema, TranslateResponseSchema } from "../../../schemas/translation.ts";
import { translateUpperCased } from "../../support/format_requests.ts";
import { expectBody, postJson } from "../../support/http_assertions.ts";
import {
  postTranslate,
  type TestService,
  withTranslationService as withService,
} from "../../support/translation_service.ts";

async function detectAll(service: TestService, texts: string[]): Promise<string[]> {
  const response = await postJson(`${service.url}/v1/detect`, { texts }, {
    "x-svc-token": service.token,
  });
  const body = await expectBody(response, 200, DetectResponseSchema);
  return body.results.map((result, i) => `${texts[i]} → ${result.language}`);
}

function expected(cases: readonly { text: string; language: string }[]): string[] {
  return cases.map((c) => `${c.text} → ${c.language}`);
}

/** Addresses and mentions beside the words, with and without a space between. */
const ADDRESS_CASES = [
  { text: "@user你好", language: "zh-Hans" },
  { text: "@anna 谢谢你的帮助", language: "zh-Hans" },
  { text: "看看https://x.com", language: "zh-Hans" },
  { text: "看看 https://example.com/docs/getting-started", language: "zh-Hans" },
  { text: "請看https://example.com/docs/getting-started", language: "zh-Hant" },
  { text: "詳細はhttps://example.com/docs/getting-startedを見て", language: "ja" },
  { text: "연락은 support@example.com 으로", language: "ko" },
  { text: "@team_lead merci pour https://example.com/report", language: "fr" },
];

Deno.test("POST /v1/detect reads no address or @mention as a word, glued to CJK text or not", async () => {
  await withService(async (service) => {
    const texts = ADDRESS_CASES.map((c) => c.text);
    assert.deepEqual(await detectAll(service, texts), expected(ADDRESS_CASES));
  });
});

Deno.test("POST /v1/translate with source auto reads a mention glued to CJK text as no word", async () => {
  await withService(async (service) => {
    const texts = ["@user你好", "看看https://x.com"];
    const response = await postTranslate(service, { target: "zh-Hans", texts });
    const body = await expectBody(response, 200, TranslateResponseSchema);
    assert.deepEqual(body.results.map((r) => r.detected_source), ["zh-Hans", "zh-Hans"]);
    assert.deepEqual(body.results.map((r) => r.text), texts, "already in the target: unchanged");
  });
});

Deno.test("message mode ends an ASCII @mention where CJK text runs on without a space", async () => {
  const { sent } = await translateUpperCased(["@anna你好吗？", "@用户 你好"], {
    mode: "message",
    source: "zh-Hans",
  });
  assert.deepEqual(sent, ["<x1/>你好吗？", "<x1/> 你好"]);
});

/**
 * English sentences with a few Han characters; Chinese and Korean ones with English words (a
 * Hangul syllable weighs as a Han character).
 */
const MIXED_CASES = [
  { text: "I love 寿司", language: "en" },
  { text: "I ate 寿司 and 拉麵 today", language: "en" },
  { text: "Let's get 火锅 tonight", language: "en" },
  { text: "我昨天用 Python 写了一个程序", language: "zh-Hans" },
  { text: "这个 API 的 response 格式", language: "zh-Hans" },
  { text: "Google Maps로 가요", language: "ko" },
  { text: "Apple Watch 샀어요", language: "ko" },
  { text: "东京に行きます", language: "ja" },
  { text: "東京に行きます", language: "ja" },
];

Deno.test("POST /v1/detect lets the English words of a sentence outvote a short Han run", async () => {
  await withService(async (service) => {
    const texts = MIXED_CASES.map((c) => c.text);
    assert.deepEqual(await detectAll(service, texts), expected(MIXED_CASES));
  });
});

/** A Spanish WebVTT file whose header note is English; a French ASS file (English keys). */
const SPANISH_VTT = "WEBVTT\n\nNOTE This file was made by the subtitle team for the English " +
  "release of the show\n\nintro\n00:00:01.000 --> 00:00:02.000 align:start position:10%\nHola, " +
  "¿cómo estás?\n\n00:00:03.000 --> 00:00:04.000 align:start position:10%\nMuy bien, gracias.\n";
const FRENCH_ASS = "[Script Info]\nTitle: Episode one\nScriptType: v4.00+\n\n[V4+ Styles]\n" +
  "Format: Name, Fontname, Fontsize, PrimaryColour\nStyle: Default,Arial,20,&H00FFFFFF\n\n" +
  "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n" +
  "Dialogue: 0,0:00:01.00,0:00:03.00,Default,,0,0,0,,Bonjour\n" +
  "Dialogue: 0,0:00:04.00,0:00:06.00,Default,,0,0,0,,Merci beaucoup\n";

for (const mode of ["paragraph", "document"]) {
  Deno.test(`POST /v1/translate in ${mode} mode detects a subtitle file by its cue text`, async () => {
    await withService(async (service) => {
      const response = await postTranslate(service, {
        target: "en",
        mode,
        texts: [SPANISH_VTT, FRENCH_ASS],
      });
      const body = await expectBody(response, 200, TranslateResponseSchema);
      assert.deepEqual(body.results.map((r) => r.detected_source), ["es", "fr"]);
    });
  });
}

Deno.test("POST /v1/detect and LibreTranslate's /detect read a subtitle file by its cue text", async () => {
  await withService(async (service) => {
    const texts = [SPANISH_VTT, FRENCH_ASS];
    assert.deepEqual(
      await detectAll(service, texts),
      expected([
        { text: SPANISH_VTT, language: "es" },
        { text: FRENCH_ASS, language: "fr" },
      ]),
    );
    for (const [q, language] of [[SPANISH_VTT, "es"], [FRENCH_ASS, "fr"]]) {
      const response = await postJson(`${service.url}/v1/compat/libre/detect`, {
        q,
        api_key: service.token,
      });
      assert.equal(response.status, 200);
      const [first] = await response.json();
      assert.equal(first.language, language);
    }
  });
});
