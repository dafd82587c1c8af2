import assert from "node:assert/strict";
import { marianPair, marianScheme, tokenScheme } from "../../../engines/builtin/language_codes.ts";
import { LANGUAGE_CODES } from "../../../schemas/languages.ts";

const NLLB_TOKENS = [
  "eng_Latn",
  "zho_Hans",
  "zho_Hant",
  "vie_Latn",
  "tha_Thai",
  "ind_Latn",
  "zsm_Latn",
  "tgl_Latn",
  "mya_Mymr",
  "khm_Khmr",
  "lao_Laoo",
  "jpn_Jpan",
  "kor_Hang",
  "fra_Latn",
  "deu_Latn",
  "spa_Latn",
];
const M2M_CODES = [
  "en",
  "zh",
  "vi",
  "th",
  "id",
  "ms",
  "tl",
  "my",
  "km",
  "lo",
  "ja",
  "ko",
  "fr",
  "de",
  "es",
];

Deno.test("every service language maps to its own NLLB code", () => {
  const scheme = tokenScheme(NLLB_TOKENS);
  assert.deepEqual(LANGUAGE_CODES.map((code) => scheme.source(code)), NLLB_TOKENS);
  assert.deepEqual(scheme.target("zh-Hant"), { code: "zho_Hant", script: null });
});

Deno.test("every service language maps to an M2M100 code; Chinese targets keep their script", () => {
  const scheme = tokenScheme(M2M_CODES);
  assert.ok(LANGUAGE_CODES.every((code) => scheme.source(code) !== null));
  assert.equal(scheme.source("fil"), "tl");
  assert.deepEqual(scheme.target("zh-Hant"), { code: "zh", script: "zh-Hant" });
  assert.equal(scheme.source("ru"), null);
});

const OUTSIDE_CASES: { language: string; tokens: string[]; expected: string | null }[] = [
  { language: "az", tokens: [...NLLB_TOKENS, "azj_Latn", "azb_Arab"], expected: "azj_Latn" },
  { language: "ru", tokens: [...NLLB_TOKENS, "rus_Cyrl"], expected: "rus_Cyrl" },
  { language: "sr", tokens: [...NLLB_TOKENS, "srp_Cyrl"], expected: "srp_Cyrl" },
  { language: "az", tokens: NLLB_TOKENS, expected: null },
  { language: "xx", tokens: [...NLLB_TOKENS, "azj_Latn"], expected: null },
];

Deno.test("a language outside the 16 maps through the tokenizer's own FLORES codes", () => {
  for (const row of OUTSIDE_CASES) {
    const scheme = tokenScheme(row.tokens);
    assert.equal(scheme.source(row.language), row.expected, `${row.language} → ${row.expected}`);
  }
});

Deno.test("a Marian pair comes from the tokenizer config, else the Opus-MT name", () => {
  assert.deepEqual(marianPair({ source_lang: "en", target_lang: "fr" }, "a/b", []), {
    source: "en",
    targets: ["fr"],
    targetTokens: [],
  });
  const named = marianPair({}, "Xenova/opus-mt-de-en", []);
  assert.equal(named?.source, "de");
  assert.equal(marianPair({}, "a/b", []), null);
});

Deno.test("a multi-target Marian model gets a >>xx<< prefix", () => {
  const pair = marianPair({}, "Xenova/opus-mt-en-mul", [">>fra<<", ">>deu<<", "▁a"])!;
  const scheme = marianScheme(pair);
  assert.deepEqual(scheme.target("fr"), { code: ">>fra<<", script: null });
  assert.equal(scheme.target("es"), null);
  assert.equal(scheme.source("en"), "en");
  assert.equal(scheme.source("de"), null);
});
