import assert from "node:assert/strict";
import { toDeepLError, toDeepLLanguages, toDeepLResponse } from "../../compat/deepl.ts";
import { checkFormality, formalityHonoured, readFormality } from "../../compat/deepl_formality.ts";
import { serviceError, TranslationServiceError } from "../../errors/translation_errors.ts";
import { DeepLLanguagesResponseSchema } from "../../schemas/compat/deepl.ts";
import type { TranslateRequest, TranslateResponse } from "../../schemas/translation.ts";

function response(partial: Partial<TranslateResponse>): TranslateResponse {
  return {
    id: `tr_${crypto.randomUUID()}`,
    object: "translation",
    created: 1,
    engine: "local-llm",
    model: "m",
    source: "en",
    target: "de",
    results: [],
    usage: { input_chars: 0, output_chars: 0, latency_ms: 0 },
    ...partial,
  };
}

Deno.test("toDeepLResponse: detected languages in DeepL spelling, billed code points", () => {
  const request: TranslateRequest = {
    source: "auto",
    target: "de",
    texts: ["你好😀", "Hi", "123"],
  };
  const body = toDeepLResponse(
    response({
      source: "zh-Hant",
      results: [
        { index: 0, text: "Hallo", detected_source: "zh-Hant", confidence: 1, alternatives: [] },
        { index: 1, text: "Hallo", detected_source: "fil", confidence: 1, alternatives: [] },
        { index: 2, text: "123", detected_source: "und", confidence: 0, alternatives: [] },
      ],
    }),
    { request, showBilledCharacters: true },
  );
  assert.deepEqual(body, {
    translations: [
      { detected_source_language: "ZH", text: "Hallo", billed_characters: 3 },
      { detected_source_language: "TL", text: "Hallo", billed_characters: 2 },
      { detected_source_language: "ZH", text: "123", billed_characters: 3 },
    ],
  });
});

Deno.test("toDeepLResponse: a letterless item reads as the response's source (the other items' language)", () => {
  const request: TranslateRequest = {
    source: "auto",
    target: "de",
    texts: ["12345", "Hello world"],
  };
  const body = toDeepLResponse(
    response({
      source: "en",
      results: [
        { index: 0, text: "12345", detected_source: "und", confidence: 0, alternatives: [] },
        { index: 1, text: "Hallo Welt", detected_source: "en", confidence: 1, alternatives: [] },
      ],
    }),
    { request },
  );
  assert.deepEqual(body.translations.map((t) => t.detected_source_language), ["EN", "EN"]);
});

Deno.test("toDeepLResponse: a batch without letters reads as the target's language, never UND", () => {
  const request: TranslateRequest = { source: "auto", target: "zh-Hant", texts: ["12345"] };
  const body = toDeepLResponse(
    response({
      source: "und",
      results: [{
        index: 0,
        text: "12345",
        detected_source: "und",
        confidence: 0,
        alternatives: [],
      }],
    }),
    { request },
  );
  assert.equal(body.translations[0].detected_source_language, "ZH");
});

Deno.test("toDeepLResponse: a given source is what DeepL reports", () => {
  const body = toDeepLResponse(
    response({
      results: [{ index: 0, text: "x", detected_source: "fr", confidence: 1, alternatives: [] }],
    }),
    { request: { source: "en", target: "de", texts: ["x"] } },
  );
  assert.equal(body.translations[0].detected_source_language, "EN");
});

Deno.test("toDeepLLanguages: source by default, target with the formality given, bad type refused", () => {
  const sources = DeepLLanguagesResponseSchema.parse(toDeepLLanguages(undefined, true));
  assert.ok(sources.every((entry) => entry.supports_formality === undefined));
  assert.deepEqual(toDeepLLanguages("source", true), sources);
  for (const formality of [true, false]) {
    const targets = DeepLLanguagesResponseSchema.parse(toDeepLLanguages("target", formality));
    assert.ok(targets.some((entry) => entry.language === "EN-US"));
    assert.ok(targets.every((entry) => entry.supports_formality === formality));
  }
  assert.throws(() => toDeepLLanguages("both", true), TranslationServiceError);
});

Deno.test("formalityHonoured: an LLM engine reads the tone, the built-in model and no engine do not", () => {
  assert.equal(formalityHonoured("engine-one"), true);
  assert.equal(formalityHonoured("local-llm"), false);
  assert.equal(formalityHonoured(undefined), false);
});

Deno.test("checkFormality: more and less are refused where no tone is read, prefer_ and default never", () => {
  for (const value of ["more", "LESS", "formal", "informal"]) {
    assert.throws(() => checkFormality(readFormality(value), "local-llm"), /prefer_/, value);
    assert.throws(() => checkFormality(readFormality(value), undefined), /prefer_/, value);
    checkFormality(readFormality(value), "engine-one");
  }
  for (const value of ["prefer_more", "prefer_less", "default", undefined]) {
    checkFormality(readFormality(value), "local-llm");
  }
  assert.throws(() => readFormality("polite"), TranslationServiceError);
});

/** Named cases: tolk's error codes and DeepL's statuses. */
const STATUS_CASES = [
  { code: "unauthorized", status: 403 },
  { code: "invalid_request", status: 400 },
  { code: "unsupported_language", status: 400 },
  { code: "batch_too_large", status: 413 },
  { code: "payload_too_large", status: 413 },
  { code: "not_found", status: 404 },
  { code: "engine_unavailable", status: 503 },
  { code: "internal_error", status: 500 },
] as const;

for (const { code, status } of STATUS_CASES) {
  Deno.test(`toDeepLError: ${code} is DeepL's ${status} with a message`, () => {
    assert.deepEqual(toDeepLError(serviceError(code, "why")), {
      status,
      body: { message: "why" },
    });
  });
}

Deno.test("toDeepLError: a refusal with a wait (a full queue) is DeepL's 429, deepl-node's TooManyRequestsError; a down engine stays 503", () => {
  assert.deepEqual(toDeepLError(serviceError("engine_unavailable", "busy", { retryAfter: 2 })), {
    status: 429,
    body: { message: "busy" },
  });
  assert.equal(toDeepLError(serviceError("engine_unavailable", "down")).status, 503);
});
