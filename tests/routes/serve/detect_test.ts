import assert from "node:assert/strict";
import { DetectResponseSchema, TranslateResponseSchema } from "../../../schemas/translation.ts";
import { expectBody, expectError, postJson } from "../../support/http_assertions.ts";
import {
  type TestService,
  withTranslationService as withService,
} from "../../support/translation_service.ts";

function detect(service: TestService, body: unknown) {
  return postJson(`${service.url}/v1/detect`, body, { "x-svc-token": service.token });
}

const CLEAR_CASES = [
  { text: "The children are playing in the garden this afternoon.", language: "en" },
  { text: "Les enfants jouent dans le jardin cet après-midi.", language: "fr" },
  { text: "Die Kinder spielen heute Nachmittag im Garten.", language: "de" },
  { text: "Los niños están jugando en el jardín esta tarde.", language: "es" },
  { text: "今天下午孩子们在花园里玩耍。", language: "zh-Hans" },
  { text: "今天下午孩子們在花園裡玩耍。", language: "zh-Hant" },
  { text: "子供たちは今日の午後、庭で遊んでいます。", language: "ja" },
  { text: "아이들이 오늘 오후에 정원에서 놀고 있어요.", language: "ko" },
  { text: "เด็กๆ กำลังเล่นอยู่ในสวนบ่ายวันนี้", language: "th" },
  { text: "12345 + 678 = ?!", language: "und" },
];

Deno.test("POST /v1/detect returns one result per item, in order, without translating", async () => {
  await withService(async (service) => {
    const response = await detect(service, { texts: CLEAR_CASES.map((c) => c.text) });
    assert.equal(response.headers.get("svc-api-version"), "2026-11-20");
    const body = await expectBody(response, 200, DetectResponseSchema);
    assert.deepEqual(body.results.map((r) => r.index), CLEAR_CASES.map((_, i) => i));
    assert.deepEqual(body.results.map((r) => r.language), CLEAR_CASES.map((c) => c.language));
    assert.equal(body.results.at(-1)!.confidence, 0, "no letters: confidence 0");
    assert.equal(body.usage.output_chars, undefined, "usage has no output_chars for detection");
    assert.equal(body.usage.input_chars, CLEAR_CASES.reduce((n, c) => n + [...c.text].length, 0));
  });
});

Deno.test("POST /v1/detect accepts arbitrary options and picks a detector by options.engine", async () => {
  await withService(async (service) => {
    for (const options of [null, {}, { engine: "auto" }, { engine: "local-llm", extra: [1] }]) {
      await expectBody(
        await detect(service, { texts: ["Bonjour"], options }),
        200,
        DetectResponseSchema,
      );
    }
    await expectError(
      await detect(service, { texts: ["Bonjour"], options: { engine: "no-such-detector" } }),
      400,
      "invalid_request",
      "options.engine",
    );
  });
});

const DETECT_ERRORS = [
  { body: { texts: [] }, status: 400, code: "invalid_request", param: "texts" },
  { body: { texts: Array(129).fill("a") }, status: 413, code: "batch_too_large", param: "texts" },
  { body: { texts: ["a".repeat(8001)] }, status: 413, code: "payload_too_large", param: "texts" },
  { body: { texts: ["a"], target: "en" }, status: 400, code: "invalid_request", param: "target" },
  { body: { texts: ["a"], options: [] }, status: 400, code: "invalid_request", param: "options" },
];

Deno.test("POST /v1/detect answers its error rows with code, status and param", async () => {
  await withService(async (service) => {
    for (const row of DETECT_ERRORS) {
      await expectError(await detect(service, row.body), row.status, row.code, row.param);
    }
    const unauthorized = await postJson(`${service.url}/v1/detect`, { texts: ["a"] });
    await expectError(unauthorized, 401, "unauthorized");
  });
});

/** Greetings and labels clients send without a source: n-gram models guessed on them. */
const SHORT_CASES = [
  { text: "Hello", language: "en" },
  { text: "Hi", language: "en" },
  { text: "Hello world!", language: "en" },
  { text: "Cancel", language: "en" },
  { text: "Hola", language: "es" },
  { text: "Buenos días", language: "es" },
  { text: "Merci", language: "fr" },
  { text: "Hallo Welt", language: "de" },
  { text: "Salamat po", language: "fil" },
];

Deno.test("POST /v1/detect reads greetings and interface labels of one to three words", async () => {
  await withService(async (service) => {
    const response = await detect(service, { texts: SHORT_CASES.map((c) => c.text) });
    const body = await expectBody(response, 200, DetectResponseSchema);
    assert.deepEqual(body.results.map((r) => r.language), SHORT_CASES.map((c) => c.language));
    // Already in the target: back unchanged, no engine asked (none is ready here).
    const translated = await postJson(`${service.url}/v1/translate`, {
      target: "en",
      texts: ["Hello", "Hi", "Hello world"],
    }, { "x-svc-token": service.token });
    const results = (await translated.json()).results as { text: string }[];
    assert.deepEqual(results.map((r) => r.text), ["Hello", "Hi", "Hello world"]);
  });
});

/**
 * Short Malaysian Malay and Indonesian texts, each with a word or phrase only that standard
 * writes (kerusi/kursi, jawapan/jawaban, rosak/rusak, sekolah rendah/sekolah dasar...). Written for this test, not taken from the dev
 * split.
 */
const MALAY_INDONESIAN_CASES = [
  { text: "Kerusi itu rosak.", language: "ms" },
  { text: "Jawapan yang tepat", language: "ms" },
  { text: "Sila isi borang ini", language: "ms" },
  { text: "Parti itu menang", language: "ms" },
  { text: "Jambatan baharu dibuka", language: "ms" },
  { text: "Kursi itu rusak.", language: "id" },
  { text: "Jawaban yang tepat", language: "id" },
  { text: "Silakan isi formulir ini", language: "id" },
  { text: "Partai itu menang", language: "id" },
  { text: "Jembatan baru dibuka", language: "id" },
  // Everyday speech: Malay awak, nak, je, sikit, korang; Indonesian ayo, butuh, ketemu.
  { text: "Awak nak pergi mana?", language: "ms" },
  { text: "Bila awak balik?", language: "ms" },
  { text: "Ambil sikit je", language: "ms" },
  { text: "Korang nak makan apa?", language: "ms" },
  { text: "Anak saya belajar di sekolah rendah.", language: "ms" },
  { text: "Ayo pergi minum.", language: "id" },
  { text: "Saya butuh bantuan kamu.", language: "id" },
  { text: "Kapan kita ketemu lagi?", language: "id" },
  { text: "Anak saya belajar di sekolah dasar.", language: "id" },
];

Deno.test("POST /v1/detect tells short Malay from Indonesian by words only one standard writes", async () => {
  await withService(async (service) => {
    const texts = MALAY_INDONESIAN_CASES.map((c) => c.text);
    const body = await expectBody(await detect(service, { texts }), 200, DetectResponseSchema);
    assert.deepEqual(
      body.results.map((r, i) => `${texts[i]} → ${r.language}`),
      MALAY_INDONESIAN_CASES.map((c) => `${c.text} → ${c.language}`),
    );
  });
});

/**
 * Items that carry no word of any language: quantities with a unit, version and model numbers,
 * acronyms and unit symbols every language writes alike, addresses. Each is
 * `und` at confidence 0, as letterless text is (DECISIONS: detect); the last rows keep a word.
 */
const WORDLESS_CASES = [
  { text: "12 kg", language: "und" },
  { text: "5 km", language: "und" },
  { text: "10 %", language: "und" },
  { text: "3x", language: "und" },
  { text: "v2.1", language: "und" },
  { text: "HTTP 404", language: "und" },
  { text: "OK", language: "und" },
  { text: "ok!", language: "und" },
  { text: "25°C, 80 km/h", language: "und" },
  { text: "5 GB / 100 ms", language: "und" },
  { text: "COVID-19", language: "und" },
  { text: "3 x 4 m", language: "und" },
  { text: "https://example.com/path?q=1", language: "und" },
  { text: "www.example.org", language: "und" },
  { text: "john.doe@example.com", language: "und" },
  { text: "@john_doe", language: "und" },
  { text: "12 kg de farine", language: "fr" },
  { text: "Das Paket wiegt 12 kg.", language: "de" },
  { text: "说", language: "zh-Hans" },
  { text: "ສະບາຍດີ", language: "lo" },
];

Deno.test("POST /v1/detect answers und at confidence 0 for items without a word", async () => {
  await withService(async (service) => {
    const texts = WORDLESS_CASES.map((c) => c.text);
    const body = await expectBody(await detect(service, { texts }), 200, DetectResponseSchema);
    assert.deepEqual(
      body.results.map((r, i) => `${texts[i]} → ${r.language}`),
      WORDLESS_CASES.map((c) => `${c.text} → ${c.language}`),
    );
    for (const [i, result] of body.results.entries()) {
      if (result.language === "und") assert.equal(result.confidence, 0, texts[i]);
    }
  });
});

Deno.test("POST /v1/detect applies the same und rule to the raw cld3 and eld detectors", async () => {
  await withService(async (service) => {
    const wordless = WORDLESS_CASES.filter((c) => c.language === "und").map((c) => c.text);
    for (const engine of ["cld3", "eld"]) {
      const response = await detect(service, { texts: wordless, options: { engine } });
      const body = await expectBody(response, 200, DetectResponseSchema);
      assert.deepEqual(
        body.results.map((r, i) => `${wordless[i]} → ${r.language} ${r.confidence}`),
        wordless.map((text) => `${text} → und 0`),
        engine,
      );
    }
  });
});

Deno.test("POST /v1/translate with source auto returns wordless items unchanged as und", async () => {
  await withService(async (service) => {
    const texts = ["12 kg", "HTTP 404", "v2.1", "OK"];
    const response = await postJson(`${service.url}/v1/translate`, { target: "fr", texts }, {
      "x-svc-token": service.token,
    });
    const body = await expectBody(response, 200, TranslateResponseSchema);
    assert.deepEqual(body.results.map((r) => r.text), texts);
    assert.deepEqual(body.results.map((r) => r.detected_source), texts.map(() => "und"));
    assert.equal(body.engine, "passthrough");
  });
});

/**
 * Taiwan writes 台 (台灣, 台北) far more often than the standard 臺, so 台 is no sign of
 * Simplified text; one Traditional-only character beside it decides.
 */
const TAI_CASES = [
  { text: "台灣", language: "zh-Hant" },
  { text: "台灣人", language: "zh-Hant" },
  { text: "台北的捷運", language: "zh-Hant" },
  { text: "台湾", language: "zh-Hans" },
  { text: "台风来了", language: "zh-Hans" },
];

Deno.test("POST /v1/detect reads 台 as written in both Chinese variants", async () => {
  await withService(async (service) => {
    const texts = TAI_CASES.map((c) => c.text);
    const body = await expectBody(await detect(service, { texts }), 200, DetectResponseSchema);
    assert.deepEqual(
      body.results.map((r, i) => `${texts[i]} → ${r.language}`),
      TAI_CASES.map((c) => `${c.text} → ${c.language}`),
    );
  });
});

/** Inputs a careless client sends: each must get a schema-valid result, never a 500. */
const ODD_TEXTS = [
  "",
  " \n\t ",
  "\u0000\u0000",
  "😀🎉👍",
  "\uD800 lone surrogate",
  "あ".repeat(8000),
];

Deno.test("POST /v1/detect answers empty, NUL, emoji, lone-surrogate and limit-length items", async () => {
  await withService(async (service) => {
    const body = await expectBody(
      await detect(service, { texts: ODD_TEXTS }),
      200,
      DetectResponseSchema,
    );
    const languages = body.results.map((result) => result.language);
    assert.deepEqual(languages, ["und", "und", "und", "und", languages[4], "ja"]);
    assert.equal(body.results[0].confidence, 0);
  });
});

Deno.test("POST /v1/detect answers current BCP 47 codes, not cld3's deprecated iw and jw", async () => {
  await withService(async (service) => {
    const texts = ["שלום, מה שלומך היום? הילדים משחקים בגינה.", "שלום"];
    const body = await expectBody(await detect(service, { texts }), 200, DetectResponseSchema);
    assert.deepEqual(body.results.map((result) => result.language), ["he", "he"]);
  });
});
