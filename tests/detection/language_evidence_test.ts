import assert from "node:assert/strict";
import { hasLanguageEvidence } from "../../detection/language_evidence.ts";

/** Rows where a word survives: the und rule must not swallow running text or other scripts. */
const WORDS = [
  "12 kg de farine",
  "See https://example.com for details",
  "a",
  "à",
  "y",
  "3人",
  "2026年",
  "第3章",
  "ສ",
  "Hi",
  "ok thanks",
  "in",
  "USA",
];

/** Rows with no word of any language. */
const NO_WORDS = [
  "",
  "  ",
  "12 kg",
  "(12 kg)",
  "12kg",
  "10 %",
  "v2.1",
  "3x",
  "3 x 4 m",
  "HTTP 404",
  "TCP/IP",
  "km/h",
  "25°C",
  "m²",
  "OK",
  "O.K.",
  "COVID-19",
  "R2-D2",
  "1st",
  "USD 5",
  "https://example.com/a?b=c.",
  "<www.example.org>",
  "example.com",
  "mailto:someone@example.com",
  "someone@example.com",
  "@someone",
  "😀🎉",
];

Deno.test("hasLanguageEvidence finds a word in text that has one", () => {
  for (const text of WORDS) assert.equal(hasLanguageEvidence(text), true, text);
});

Deno.test("hasLanguageEvidence finds none in quantities, codes, units and addresses", () => {
  for (const text of NO_WORDS) assert.equal(hasLanguageEvidence(text), false, text);
});
