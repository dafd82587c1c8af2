import assert from "node:assert/strict";
import {
  clientSourceLanguages,
  clientTargetLanguages,
  fromClientLanguage,
  LANGUAGE_SPELLINGS,
  toClientLanguage,
} from "../../compat/language_spellings.ts";
import { LANGUAGE_CODES } from "../../schemas/languages.ts";

/** Every spelling clients send, as they send it, with the tolk code and each family's answer. */
const ROWS = [
  { spelling: "en", code: "en", deepl: "EN", libre: "en" },
  { spelling: "EN-US", code: "en", deepl: "EN", libre: "en" },
  { spelling: "EN-GB", code: "en", deepl: "EN", libre: "en" },
  { spelling: "ZH", code: "zh-Hans", deepl: "ZH", libre: "zh-Hans" },
  { spelling: "ZH-HANS", code: "zh-Hans", deepl: "ZH", libre: "zh-Hans" },
  { spelling: "zh-CN", code: "zh-Hans", deepl: "ZH", libre: "zh-Hans" },
  { spelling: "zh_SG", code: "zh-Hans", deepl: "ZH", libre: "zh-Hans" },
  { spelling: "ZH-HANT", code: "zh-Hant", deepl: "ZH", libre: "zh-Hant" },
  { spelling: "zt", code: "zh-Hant", deepl: "ZH", libre: "zh-Hant" },
  { spelling: "zh-TW", code: "zh-Hant", deepl: "ZH", libre: "zh-Hant" },
  { spelling: "zh-HK", code: "zh-Hant", deepl: "ZH", libre: "zh-Hant" },
  { spelling: "VI", code: "vi", deepl: "VI", libre: "vi" },
  { spelling: "th", code: "th", deepl: "TH", libre: "th" },
  { spelling: "ID", code: "id", deepl: "ID", libre: "id" },
  { spelling: "in", code: "id", deepl: "ID", libre: "id" },
  { spelling: "MS", code: "ms", deepl: "MS", libre: "ms" },
  { spelling: "fil", code: "fil", deepl: "TL", libre: "tl" },
  { spelling: "FIL", code: "fil", deepl: "TL", libre: "tl" },
  { spelling: "tl", code: "fil", deepl: "TL", libre: "tl" },
  { spelling: "TL", code: "fil", deepl: "TL", libre: "tl" },
  { spelling: "my", code: "my", deepl: "MY", libre: "my" },
  { spelling: "KM", code: "km", deepl: "KM", libre: "km" },
  { spelling: "lo", code: "lo", deepl: "LO", libre: "lo" },
  { spelling: "JA", code: "ja", deepl: "JA", libre: "ja" },
  { spelling: "ko", code: "ko", deepl: "KO", libre: "ko" },
  { spelling: "FR", code: "fr", deepl: "FR", libre: "fr" },
  { spelling: "de", code: "de", deepl: "DE", libre: "de" },
  { spelling: "ES", code: "es", deepl: "ES", libre: "es" },
  { spelling: "ES-419", code: "es", deepl: "ES", libre: "es" },
] as const;

for (const row of ROWS) {
  Deno.test(`language spelling ${row.spelling} reads as ${row.code} in any case and answers ${row.deepl} / ${row.libre}`, () => {
    for (const variant of [row.spelling, row.spelling.toLowerCase(), row.spelling.toUpperCase()]) {
      assert.equal(fromClientLanguage(variant), row.code, variant);
    }
    assert.equal(toClientLanguage(row.code, "deepl"), row.deepl);
    assert.equal(toClientLanguage(row.code, "libre"), row.libre);
  });
}

Deno.test("language spellings: the table test covers every row of the table", () => {
  const tested = new Set(ROWS.map((row) => row.spelling.toLowerCase().replaceAll("_", "-")));
  for (const code of LANGUAGE_CODES) tested.add(code.toLowerCase());
  assert.deepEqual([...tested].sort(), Object.keys(LANGUAGE_SPELLINGS).sort());
});

Deno.test("language spellings: every tolk code reads as itself", () => {
  for (const code of LANGUAGE_CODES) assert.equal(fromClientLanguage(code), code);
});

Deno.test("language spellings: unknown and prototype names read as unsupported", () => {
  for (const spelling of ["pt", "PT-BR", "xx", "", "auto", "constructor", "__proto__", "zh-Latn"]) {
    assert.equal(fromClientLanguage(spelling), undefined, spelling);
  }
});

Deno.test("language spellings: a detector answer outside the 16 keeps its family's case", () => {
  assert.equal(toClientLanguage("und", "deepl"), "UND");
  assert.equal(toClientLanguage("und", "libre"), "und");
});

Deno.test("language lists: DeepL targets name English and Chinese by variant, sources once", () => {
  const targets = clientTargetLanguages("deepl").map((entry) => entry.code);
  assert.ok(targets.includes("EN-GB") && targets.includes("EN-US") && !targets.includes("EN"));
  assert.ok(targets.includes("ZH-HANS") && targets.includes("ZH-HANT") && !targets.includes("ZH"));
  assert.equal(targets.length, 17);
  const sources = clientSourceLanguages("deepl").map((entry) => entry.code);
  assert.equal(sources.length, 15);
  assert.equal(new Set(sources).size, sources.length);
  for (const code of [...targets, ...sources]) assert.ok(fromClientLanguage(code), code);
});

Deno.test("language lists: LibreTranslate lists all 16 languages, each readable back", () => {
  const entries = clientSourceLanguages("libre");
  assert.equal(entries.length, 16);
  for (const entry of entries) assert.equal(fromClientLanguage(entry.code), entry.language);
  assert.deepEqual(clientTargetLanguages("libre"), entries);
});
