import assert from "node:assert/strict";
import { DEFAULT_COMPAT_POLICY } from "../../compat/compat_request.ts";
import {
  fromLibreDetectRequest,
  fromLibreRequest,
  type LibreCall,
  toLibreDetection,
  toLibreDetections,
  toLibreError,
  toLibreFrontendSettings,
  toLibreLanguages,
  toLibreResponse,
} from "../../compat/libretranslate.ts";
import { serviceError, TranslationServiceError } from "../../errors/translation_errors.ts";
import {
  LibreFrontendSettingsSchema,
  LibreLanguagesResponseSchema,
  LibreTranslateResponseSchema,
} from "../../schemas/compat/libretranslate.ts";
import type { TranslateResponse } from "../../schemas/translation.ts";

const policy = DEFAULT_COMPAT_POLICY;

/** Named cases: LibreTranslate fields in, the call tolk runs. */
const REQUEST_CASES: { name: string; body: Record<string, unknown>; expected: LibreCall }[] = [
  {
    name: "a string q with a source keeps its lines",
    body: { q: "Hola", source: "es", target: "en", api_key: "k" },
    expected: {
      request: {
        source: "es",
        target: "en",
        texts: ["Hola"],
        options: { preserve_formatting: true },
      },
      batch: false,
      alternatives: 0,
    },
  },
  {
    name: "an array q with source auto is a batch",
    body: { q: ["a", "b"], source: "auto", target: "zt" },
    expected: {
      request: {
        source: "auto",
        target: "zh-Hant",
        texts: ["a", "b"],
        options: { preserve_formatting: true },
      },
      batch: true,
      alternatives: 0,
    },
  },
  {
    name: "format html",
    body: { q: "<b>x</b>", source: "AUTO", target: "de", format: "html" },
    expected: {
      request: { source: "auto", target: "de", texts: ["<b>x</b>"], format: "html", options: {} },
      batch: false,
      alternatives: 0,
    },
  },
  {
    name: "alternatives as a form string asks the engine for alternatives",
    body: { q: "x", source: "tl", target: "en", alternatives: "2" },
    expected: {
      request: {
        source: "fil",
        target: "en",
        texts: ["x"],
        options: { preserve_formatting: true, return_alternatives: true },
      },
      batch: false,
      alternatives: 2,
    },
  },
];

for (const testCase of REQUEST_CASES) {
  Deno.test(`fromLibreRequest: ${testCase.name}`, () => {
    assert.deepEqual(fromLibreRequest(testCase.body, policy), testCase.expected);
  });
}

/** Named error cases with LibreTranslate's statuses. */
const ERROR_CASES: {
  name: string;
  body: unknown;
  status: number;
  param: string | null;
  /** LibreTranslate's words, where they matter. */
  message?: string;
}[] = [
  {
    name: "no q",
    body: { source: "en", target: "de" },
    status: 400,
    param: "q",
    message: "Invalid request: missing q parameter",
  },
  { name: "an empty q", body: { q: "", source: "en", target: "de" }, status: 400, param: "q" },
  {
    name: "an empty q array",
    body: { q: [], source: "en", target: "de" },
    status: 400,
    param: "q",
  },
  { name: "no source", body: { q: "x", target: "de" }, status: 400, param: "source" },
  { name: "no target", body: { q: "x", source: "en" }, status: 400, param: "target" },
  {
    name: "an unknown target",
    body: { q: "x", source: "en", target: "pb" },
    status: 400,
    param: "target",
  },
  {
    name: "a format other than text or html",
    body: { q: "x", source: "en", target: "de", format: "markdown" },
    status: 400,
    param: "format",
  },
  {
    name: "alternatives over 3",
    body: { q: "x", source: "en", target: "de", alternatives: 4 },
    status: 400,
    param: "alternatives",
  },
  {
    name: "129 texts",
    body: { q: Array(129).fill("x"), source: "en", target: "de" },
    status: 400,
    param: "q",
    message: "q holds more than 128 items",
  },
];

for (const testCase of ERROR_CASES) {
  Deno.test(`fromLibreRequest refuses ${testCase.name} with {error} and ${testCase.status}`, () => {
    assert.throws(() => fromLibreRequest(testCase.body, policy), (thrown) => {
      assert.ok(thrown instanceof TranslationServiceError);
      assert.equal(thrown.param, testCase.param);
      const { status, body } = toLibreError(thrown);
      assert.equal(status, testCase.status);
      assert.deepEqual(Object.keys(body), ["error"]);
      if (testCase.message) assert.equal(body.error, testCase.message);
      return true;
    });
  });
}

function result(texts: string[], alternatives: string[][] = []): TranslateResponse {
  return {
    id: `tr_${crypto.randomUUID()}`,
    object: "translation",
    created: 1,
    engine: "local-llm",
    model: "m",
    source: "en",
    target: "de",
    results: texts.map((text, index) => ({
      index,
      text,
      detected_source: "en",
      confidence: 0.5,
      alternatives: alternatives[index] ?? [],
    })),
    usage: { input_chars: 0, output_chars: 0, latency_ms: 0 },
  };
}

Deno.test("toLibreResponse: a string q gets strings, detectedLanguage in percent when auto", () => {
  const call = fromLibreRequest({ q: "Hello", source: "auto", target: "de" }, policy);
  const body = LibreTranslateResponseSchema.parse(
    toLibreResponse(result(["Hallo"]), call, [{ language: "en", confidence: 0.874 }]),
  );
  assert.deepEqual(body, {
    translatedText: "Hallo",
    detectedLanguage: { language: "en", confidence: 87.4 },
  });
});

Deno.test("toLibreResponse: an array q gets arrays; alternatives only when asked", () => {
  const call = fromLibreRequest(
    { q: ["a", "b"], source: "auto", target: "de", alternatives: 1 },
    policy,
  );
  const body = toLibreResponse(result(["A", "B"], [["A1", "A2"], []]), call, [
    { language: "zh-Hant", confidence: 1 },
    { language: "fil", confidence: 0.2 },
  ]);
  assert.deepEqual(body, {
    translatedText: ["A", "B"],
    detectedLanguage: [
      { language: "zh-Hant", confidence: 100 },
      { language: "tl", confidence: 20 },
    ],
    alternatives: [["A1"], []],
  });
});

Deno.test("toLibreResponse: a given source has no detectedLanguage", () => {
  const call = fromLibreRequest({ q: "a", source: "en", target: "de" }, policy);
  assert.deepEqual(toLibreResponse(result(["A"]), call, []), { translatedText: "A" });
});

Deno.test("fromLibreDetectRequest reads q as one text or several and refuses an empty one", () => {
  assert.deepEqual(fromLibreDetectRequest({ q: "Bonjour" }), ["Bonjour"]);
  assert.deepEqual(fromLibreDetectRequest({ q: ["a", "b"] }), ["a", "b"]);
  for (const q of ["", [], undefined]) {
    assert.throws(() => fromLibreDetectRequest({ q }), TranslationServiceError, String(q));
  }
});

/** LibreTranslate's pooling of a batch (libretranslate/language.py, detect_languages). */
const POOLED = [
  {
    name: "one text is its own detection",
    texts: ["Bonjour"],
    detections: [{ language: "fr", confidence: 0.8 }],
    expected: [{ language: "fr", confidence: 80 }],
  },
  {
    name: "a language of two texts is averaged and listed once",
    texts: ["aaaa", "bbbb", "cc"],
    detections: [
      { language: "de", confidence: 0.9 },
      { language: "fr", confidence: 0.5 },
      { language: "de", confidence: 0.7 },
    ],
    expected: [{ language: "de", confidence: 80 }, { language: "fr", confidence: 50 }],
  },
  {
    name: "a long text outweighs a surer short one",
    texts: ["short", "a much longer text than the other"],
    detections: [{ language: "en", confidence: 0.9 }, { language: "de", confidence: 0.6 }],
    expected: [{ language: "de", confidence: 60 }, { language: "en", confidence: 90 }],
  },
  {
    name: "a language it does not list is left out",
    texts: ["Buongiorno a tutti voi", "12345", "Guten Morgen"],
    detections: [
      { language: "it", confidence: 0.9 },
      { language: "und", confidence: 0 },
      { language: "de", confidence: 0.7 },
    ],
    expected: [{ language: "de", confidence: 70 }],
  },
  {
    name: "no language it lists is en at 0",
    texts: ["12345", "Buongiorno"],
    detections: [{ language: "und", confidence: 0 }, { language: "it", confidence: 0.9 }],
    expected: [{ language: "en", confidence: 0 }],
  },
] as const;

for (const { name, texts, detections, expected } of POOLED) {
  Deno.test(`toLibreDetections pools a batch as LibreTranslate does: ${name}`, () => {
    assert.deepEqual(toLibreDetections(texts, detections), expected);
  });
}

Deno.test("toLibreDetection clamps and rounds confidence to 0..100; a language not listed is en at 0", () => {
  for (const language of ["und", "it"]) {
    assert.deepEqual(toLibreDetection({ language, confidence: 0.9 }), {
      language: "en",
      confidence: 0,
    });
  }
  assert.equal(toLibreDetection({ language: "fr", confidence: 0.1234 }).confidence, 12.3);
  assert.equal(toLibreDetection({ language: "en", confidence: 1.2 }).confidence, 100);
});

Deno.test("toLibreLanguages lists 16 languages, each targeting the 15 others", () => {
  const languages = LibreLanguagesResponseSchema.parse(toLibreLanguages());
  assert.equal(languages.length, 16);
  for (const language of languages) {
    assert.equal(language.targets.length, 15);
    assert.ok(!language.targets.includes(language.code));
  }
  assert.ok(languages.some((language) => language.code === "zh-Hant"));
});

Deno.test("toLibreFrontendSettings matches the schema and says a key is required", () => {
  const settings = LibreFrontendSettingsSchema.parse(toLibreFrontendSettings());
  assert.equal(settings.keyRequired, true);
  assert.equal(settings.charLimit, 8000);
});

/** Named cases: tolk's codes and LibreTranslate's statuses. */
const STATUS_CASES = [
  { code: "unauthorized", status: 403 },
  { code: "invalid_request", status: 400 },
  { code: "unsupported_language", status: 400 },
  { code: "payload_too_large", status: 400 },
  { code: "batch_too_large", status: 400 },
  { code: "engine_unavailable", status: 503 },
  { code: "internal_error", status: 500 },
] as const;

for (const { code, status } of STATUS_CASES) {
  Deno.test(`toLibreError: ${code} is ${status} with {error}`, () => {
    assert.deepEqual(toLibreError(serviceError(code, "why")), { status, body: { error: "why" } });
  });
}

Deno.test("toLibreError: a refusal with a wait (a full queue) is LibreTranslate's 429 Slowdown; a down engine stays 503", () => {
  assert.deepEqual(
    toLibreError(serviceError("engine_unavailable", "busy", { retryAfter: 2 })),
    { status: 429, body: { error: "Slowdown: busy" } },
  );
  assert.equal(toLibreError(serviceError("engine_unavailable", "down")).status, 503);
});
