/**
 * One text, one language, whichever route asks: /v1/detect, /v1/translate and the WebSocket with
 * source auto, LibreTranslate's /detect and /translate, DeepL's `detected_source_language` and
 * DeepLX's `source_lang` agree for plain sentences in the 16 languages, mixed scripts, chat
 * messages with addresses, interpolation variables, subtitle files and single words. Over HTTP
 * and WebSocket on loopback, engine-one a stand-in; texts written for this test.
 */
import assert from "node:assert/strict";
import { DetectResponseSchema, TranslateResponseSchema } from "../../../schemas/translation.ts";
import { answersOfEveryRoute } from "../../support/detection_routes.ts";
import { expectBody, postJson } from "../../support/http_assertions.ts";
import { withOnlyStandIn } from "../../support/stand_in_service.ts";
import { postTranslate } from "../../support/translation_service.ts";

const PLAIN = [
  "The weather is lovely today, so we are going to the beach.",
  "今天天气很好，所以我们要去海边。",
  "今天天氣很好，所以我們要去海邊。",
  "Hôm nay thời tiết rất đẹp nên chúng tôi sẽ đi biển.",
  "วันนี้อากาศดีมาก เราจึงจะไปทะเลกัน",
  "Cuaca hari ini sangat cerah, jadi kami akan pergi ke pantai.",
  "Cuaca hari ini sangat baik, jadi kami hendak pergi ke pantai bersama-sama.",
  "Napakaganda ng panahon ngayon kaya pupunta kami sa dagat.",
  "ဒီနေ့ ရာသီဥတု အရမ်းကောင်းလို့ ကျွန်တော်တို့ ပင်လယ်ကမ်းခြေကို သွားမယ်။",
  "ថ្ងៃនេះអាកាសធាតុល្អណាស់ ដូច្នេះយើងនឹងទៅសមុទ្រ។",
  "ມື້ນີ້ອາກາດດີຫຼາຍ ພວກເຮົາຈະໄປທະເລ.",
  "今日はとても良い天気なので、海に行きます。",
  "오늘은 날씨가 정말 좋아서 바다에 갈 거예요.",
  "Il fait très beau aujourd'hui, alors nous allons à la plage.",
  "Das Wetter ist heute herrlich, also fahren wir an den Strand.",
  "Hoy hace un tiempo estupendo, así que vamos a la playa.",
];

const MIXED = [
  "I love 寿司",
  "我昨天用 Python 写了一个程序",
  "Google Maps로 가요",
  "東京に行きます",
  "Let's get 火锅 tonight",
];

const MESSAGES = [
  "@user你好",
  "看看https://x.com",
  "@team_lead merci pour https://example.com/report",
  "Schau mal https://example.com/the-quarterly-english-report-about-the-weather",
  "Escríbeme a support.team@example.com cuando puedas, gracias",
  "`npm install --save-dev typescript` を実行してください",
];

const VARIABLES = [
  "¡Hola {first_name_of_the_user}! Tienes {count_of_unread_messages} mensajes.",
  "Bonjour %1$s, vous avez %2$d nouveaux messages",
];

const SUBTITLES = [
  "WEBVTT\n\nNOTE This file was made by the subtitle team for the English release of the " +
  "show\n\n00:00:01.000 --> 00:00:02.000\nHola, ¿cómo estás?\n\n00:00:03.000 --> " +
  "00:00:04.000\nMuy bien, gracias.\n",
  "1\n00:00:01,000 --> 00:00:02,000\nGuten Morgen!\n\n2\n00:00:03,000 --> 00:00:04,000\n" +
  "Wie geht es dir?\n",
  "[Script Info]\nTitle: Episode one\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, " +
  "End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:01.00," +
  "0:00:03.00,Default,,0,0,0,,Bonjour\nDialogue: 0,0:00:04.00,0:00:06.00,Default,,0,0,0,," +
  "Merci beaucoup\n",
];

const SHORT = ["Hi", "Danke", "merci", "谢谢", "ありがとう", "감사합니다", "12345", "🙂👍"];

const OTHER = ["  \n  Guten Morgen zusammen!\n  ", "Buongiorno a tutti, come state oggi?"];

const TABLE = [...PLAIN, ...MIXED, ...MESSAGES, ...VARIABLES, ...SUBTITLES, ...SHORT, ...OTHER];

Deno.test(`every route answers one language for each of ${TABLE.length} texts`, async () => {
  await withOnlyStandIn({}, async (service) => {
    const { answers, expected } = await answersOfEveryRoute(service, TABLE);
    const lines = (routes: Record<string, string[]>) =>
      Object.entries(routes).flatMap(([route, values]) =>
        TABLE.map((text, i) => `${route} ${JSON.stringify(text)} → ${values[i]}`)
      );
    assert.deepEqual(lines(answers), lines(expected));
  });
});

/**
 * Texts a mode reads differently from the default: hashtags (message mode protects them, and
 * detection reads none in any mode), interpolation variables (subtitle mode translates a cue's
 * braces as text).
 */
const MODE_CASES = [
  "#BlackFridayDeals #OnlineShopping #BestPrices ¡Ofertas increíbles!",
  "#ThrowbackThursday #SummerVibes Souvenirs de vacances",
  "Danke {{ user.display_name_in_the_english_profile }}",
  "Hola %(the_user_name_in_english)s, bienvenido",
  "Bonjour {first_name_of_the_user}, vous avez {count_of_the_messages} messages",
];

Deno.test("POST /v1/translate answers /v1/detect's language for a text in every mode", async () => {
  await withOnlyStandIn({}, async (service) => {
    const detected = await postJson(`${service.url}/v1/detect`, { texts: MODE_CASES }, {
      "x-svc-token": service.token,
    });
    const own = (await expectBody(detected, 200, DetectResponseSchema)).results;
    const line = (mode: string, i: number, language: string) =>
      `${mode} ${MODE_CASES[i]} → ${language}`;
    for (const mode of ["paragraph", "selection", "webpage", "document", "message", "subtitle"]) {
      const response = await postTranslate(service, {
        source: "auto",
        target: "ko",
        mode,
        texts: MODE_CASES,
      });
      const body = await expectBody(response, 200, TranslateResponseSchema);
      assert.deepEqual(
        body.results.map((result, i) => line(mode, i, result.detected_source)),
        own.map((result, i) => line(mode, i, result.language)),
      );
    }
  });
});
