import assert from "node:assert/strict";
import { DEFAULT_COMPAT_POLICY } from "../../compat/compat_request.ts";
import { fromDeepLXRequest, toDeepLXError, toDeepLXResponse } from "../../compat/deeplx.ts";
import { serviceError, TranslationServiceError } from "../../errors/translation_errors.ts";
import { DeepLXResponseSchema } from "../../schemas/compat/deeplx.ts";
import type { TranslateRequest } from "../../schemas/translation.ts";

const policy = DEFAULT_COMPAT_POLICY;

/** Named cases: DeepLX fields in, the TranslateRequest tolk runs. */
const REQUEST_CASES: { name: string; body: Record<string, unknown>; expected: TranslateRequest }[] =
  [
    {
      name: "no source detects and keeps lines",
      body: { text: "Hi\nthere", target_lang: "ZH" },
      expected: {
        source: "auto",
        target: "zh-Hans",
        texts: ["Hi\nthere"],
        options: { preserve_formatting: true },
      },
    },
    {
      name: "source auto detects",
      body: { text: "Hi", source_lang: "AUTO", target_lang: "EN-GB" },
      expected: {
        source: "auto",
        target: "en",
        texts: ["Hi"],
        options: { preserve_formatting: true },
      },
    },
    {
      name: "a given source and html tags",
      body: { text: "<b>Hi</b>", source_lang: "EN", target_lang: "de", tag_handling: "html" },
      expected: { source: "en", target: "de", texts: ["<b>Hi</b>"], format: "html", options: {} },
    },
  ];

for (const testCase of REQUEST_CASES) {
  Deno.test(`fromDeepLXRequest: ${testCase.name}`, () => {
    assert.deepEqual(fromDeepLXRequest(testCase.body, policy).request, testCase.expected);
  });
}

/** Named error cases with DeepLX's statuses. */
const ERROR_CASES: { name: string; body: unknown; status: number }[] = [
  { name: "an empty text", body: { text: "", target_lang: "DE" }, status: 400 },
  { name: "no target", body: { text: "x" }, status: 400 },
  { name: "an unknown target", body: { text: "x", target_lang: "PT" }, status: 400 },
  {
    name: "a bad tag_handling",
    body: { text: "x", target_lang: "DE", tag_handling: "md" },
    status: 400,
  },
  { name: "an over-long text", body: { text: "x".repeat(8001), target_lang: "DE" }, status: 400 },
];

for (const testCase of ERROR_CASES) {
  Deno.test(`fromDeepLXRequest refuses ${testCase.name} with {code, message}`, () => {
    assert.throws(() => fromDeepLXRequest(testCase.body, policy), (thrown) => {
      assert.ok(thrown instanceof TranslationServiceError);
      const { status, body } = toDeepLXError(thrown);
      assert.equal(status, testCase.status);
      assert.equal(body.code, testCase.status);
      return true;
    });
  });
}

Deno.test("toDeepLXResponse: detected source in DeepL spelling, target echoed upper case", () => {
  const call = fromDeepLXRequest({ text: "Kumusta", target_lang: "en-us" }, policy);
  const body = DeepLXResponseSchema.parse(toDeepLXResponse({
    id: `tr_${crypto.randomUUID()}`,
    object: "translation",
    created: 1700000000,
    engine: "local-llm",
    model: "m",
    source: "fil",
    target: "en",
    results: [{
      index: 0,
      text: "Hello",
      detected_source: "fil",
      confidence: 1,
      alternatives: ["Hi"],
    }],
    usage: { input_chars: 7, output_chars: 5, latency_ms: 1 },
  }, call));
  assert.deepEqual(body, {
    code: 200,
    id: 1700000000000,
    data: "Hello",
    alternatives: ["Hi"],
    source_lang: "TL",
    target_lang: "EN-US",
    method: "tolk",
  });
});

Deno.test("toDeepLXError: a bad token is 401 with {code, message}", () => {
  assert.deepEqual(toDeepLXError(serviceError("unauthorized", "Invalid access token")), {
    status: 401,
    body: { code: 401, message: "Invalid access token" },
  });
});

Deno.test("toDeepLXError: a refusal with a wait (a full queue) is DeepLX's 429; a down engine stays 503", () => {
  assert.deepEqual(
    toDeepLXError(serviceError("engine_unavailable", "busy", { retryAfter: 2 })),
    { status: 429, body: { code: 429, message: "busy" } },
  );
  assert.equal(toDeepLXError(serviceError("engine_unavailable", "down")).status, 503);
});
