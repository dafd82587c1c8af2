import assert from "node:assert/strict";
import {
  DETECTOR_NAMES,
  loadLanguageDetector,
  UnknownDetectorError,
} from "../../detection/language_detector.ts";

const detector = await loadLanguageDetector();

/** One clear sentence per supported language. */
const CLEAR_CASES: ReadonlyArray<readonly [string, string]> = [
  ["en", "The weather was lovely yesterday, so we walked along the river to the old bridge."],
  ["zh-Hans", "我们明天早上去图书馆看书，然后一起吃午饭。"],
  ["zh-Hant", "我們明天早上去圖書館看書，然後一起吃午飯。"],
  ["vi", "Hôm qua trời đẹp nên chúng tôi đã đi dạo dọc bờ sông."],
  ["th", "เมื่อวานอากาศดีมาก เราจึงไปเดินเล่นริมแม่น้ำ"],
  [
    "id",
    "Kemarin cuacanya bagus, jadi kami bisa berjalan-jalan di tepi sungai karena tidak hujan.",
  ],
  [
    "ms",
    "Semalam cuacanya baik, jadi kami boleh berjalan-jalan di tepi sungai kerana tidak hujan.",
  ],
  ["fil", "Maganda ang panahon kahapon kaya naglakad kami sa tabi ng ilog."],
  ["my", "မနေ့က ရာသီဥတု သာယာလို့ မြစ်ကမ်းတစ်လျှောက် လမ်းလျှောက်ခဲ့ကြတယ်။"],
  ["km", "ម្សិលមិញអាកាសធាតុល្អ ដូច្នេះយើងបានដើរលេងតាមមាត់ទន្លេ។"],
  ["lo", "ມື້ວານນີ້ອາກາດດີ ພວກເຮົາຈຶ່ງໄປຍ່າງຫຼິ້ນແຄມແມ່ນ້ຳ."],
  ["ja", "昨日は天気が良かったので、川沿いを散歩しました。"],
  ["ko", "어제는 날씨가 좋아서 강을 따라 산책했습니다."],
  ["fr", "Il faisait beau hier, alors nous nous sommes promenés le long de la rivière."],
  ["de", "Gestern war das Wetter schön, also sind wir am Fluss entlang spaziert."],
  ["es", "Ayer hizo buen tiempo, así que paseamos a lo largo del río hasta el puente."],
];

for (const [language, text] of CLEAR_CASES) {
  Deno.test(`detect recognises a clear ${language} sentence with high confidence`, () => {
    const result = detector.detect(text);
    assert.equal(result.language, language);
    assert.ok(result.confidence >= 0.5, `confidence ${result.confidence} for ${language}`);
    assert.ok(result.confidence <= 1);
  });
}

/** Inputs without letters: always und with confidence 0. */
const NO_LETTER_CASES: ReadonlyArray<readonly [string, string]> = [
  ["empty string", ""],
  ["whitespace only", "  \t\n  "],
  ["emoji", "😀🎉👍🏽"],
  ["digits", "1234567890"],
  ["punctuation", "?!.,;:()[]—…"],
  ["digits, emoji and punctuation", "42 😀 -- 3.14!"],
];

for (const [name, text] of NO_LETTER_CASES) {
  Deno.test(`detect returns und with confidence 0 for ${name}`, () => {
    for (const detectorName of DETECTOR_NAMES) {
      assert.deepEqual(detector.detect(text, detectorName), { language: "und", confidence: 0 });
    }
  });
}

Deno.test("detect reads a single Han character as Chinese with low confidence", () => {
  const simplified = detector.detect("书");
  assert.equal(simplified.language, "zh-Hans");
  assert.ok(simplified.confidence < 0.9);
  const traditional = detector.detect("書");
  assert.equal(traditional.language, "zh-Hant");
  assert.ok(traditional.confidence < 0.9);
  const neutral = detector.detect("人");
  assert.ok(neutral.language === "zh-Hans" || neutral.language === "zh-Hant");
  assert.ok(neutral.confidence < 0.5);
});

Deno.test("detect tells kanji-only Japanese by Japanese-only character forms", () => {
  assert.equal(detector.detect("駅前広場").language, "ja");
});

/** Mixed scripts: the non-Latin script wins over embedded Latin words. */
const MIXED_CASES: ReadonlyArray<readonly [string, string]> = [
  ["ja", "新しいiPhoneのカメラはとても良いです"],
  ["ko", "오늘 Google Maps로 길을 찾았어요"],
  ["th", "ฉันใช้ Microsoft Word ทุกวัน"],
  ["zh-Hans", "我昨天用 Python 写了一个程序"],
  ["zh-Hant", "羅賓·烏特帕創下最高分，僅以 41 球便完成 70 次跑位。"],
];

for (const [language, text] of MIXED_CASES) {
  Deno.test(`detect picks ${language} for ${language} text with Latin words mixed in`, () => {
    const result = detector.detect(text);
    assert.equal(result.language, language);
    assert.ok(
      result.confidence < detector.detect(text.replace(/[A-Za-z]+/g, "")).confidence + 1e-9,
    );
  });
}

Deno.test("detect gives lower confidence to a short fragment than to a sentence", () => {
  const short = detector.detect("the house");
  const sentence = detector.detect(
    "The house at the end of the street has been empty for years, and nobody knows why.",
  );
  assert.equal(sentence.language, "en");
  assert.ok(short.confidence < sentence.confidence);
});

Deno.test("detect reports a language outside the 16 with its own code when sure", () => {
  assert.equal(detector.detect("Привет, как у тебя дела? Я давно тебя не видел.").language, "ru");
  assert.equal(
    detector.detect("Questa è una frase italiana abbastanza lunga per essere riconosciuta.")
      .language,
    "it",
  );
});

Deno.test("detect handles an 8000-code-point item and stays within 0..1", () => {
  const sentence = "Die Katze schläft auf dem warmen Sofa neben dem Fenster. ";
  const text = sentence.repeat(Math.ceil(8000 / sentence.length)).slice(0, 8000);
  assert.equal([...text].length, 8000);
  const result = detector.detect(text);
  assert.equal(result.language, "de");
  assert.ok(result.confidence >= 0.9 && result.confidence <= 1);
});

Deno.test("detect does not split a surrogate pair when it cuts a long item", () => {
  const text = "a".repeat(999) + "😀" + "日本語のテキストです。".repeat(10);
  const result = detector.detect(text);
  assert.ok(result.confidence >= 0 && result.confidence <= 1);
});

Deno.test("detect accepts every listed name and defaults to the first", () => {
  assert.equal(detector.defaultName, detector.names[0]);
  assert.deepEqual([...detector.names], [...DETECTOR_NAMES]);
  const text = "Ceci est une phrase française tout à fait ordinaire.";
  for (const name of detector.names) assert.equal(detector.detect(text, name).language, "fr");
  assert.deepEqual(detector.detect(text), detector.detect(text, detector.defaultName));
});

Deno.test("detect throws UnknownDetectorError for an unknown detector name", () => {
  assert.throws(() => detector.detect("hello", "franc"), UnknownDetectorError);
  assert.throws(() => detector.detect("hello", "toString"), UnknownDetectorError);
});

Deno.test("loadLanguageDetector returns the same detector on repeated calls", async () => {
  assert.equal(await loadLanguageDetector(), detector);
});
