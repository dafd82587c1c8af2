import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { expectBody, expectError, postJson } from "../../support/http_assertions.ts";
import { startTranslationService, type TestService } from "../../support/translation_service.ts";

const FRENCH = "Bonjour, je voudrais réserver une chambre pour deux nuits.";
const GERMAN = "Guten Morgen, wie geht es dir heute? Das Wetter ist schön.";
const ENGLISH = "The weather is lovely today and we are going to the beach.";

async function withService(fn: (service: TestService) => Promise<void>) {
  const service = await startTranslationService();
  try {
    await fn(service);
  } finally {
    await service.stop();
  }
}

function translate(service: TestService, body: unknown, headers: Record<string, string> = {}) {
  return postJson(`${service.url}/v1/translate`, body, {
    "x-svc-token": service.token,
    ...headers,
  });
}

/** English words repeated up to exactly `n` code points (detected as English: no engine call). */
function englishOf(n: number): string {
  return "the house is small and the garden is green ".repeat(Math.ceil(n / 40)).slice(0, n);
}

Deno.test("POST /v1/translate translates each item in order with the local model", async () => {
  await withService(async (service) => {
    const response = await translate(service, { target: "en", texts: [FRENCH, GERMAN] });
    assert.equal(response.headers.get("svc-api-version"), "2026-11-20");
    assert.match(response.headers.get("x-request-id")!, /^[0-9a-f-]{36}$/);
    const body = await expectBody(response, 200, TranslateResponseSchema);
    assert.equal(body.engine, "local-llm");
    assert.equal(body.model, "tolk-test/tiny-nllb");
    assert.equal(body.target, "en");
    assert.deepEqual(body.results.map((r) => r.index), [0, 1]);
    assert.deepEqual(body.results.map((r) => r.detected_source), ["fr", "de"]);
    assert.notEqual(body.results[0].text, body.results[1].text);
    assert.notEqual(body.results[0].text, FRENCH);
    for (const result of body.results) assert.deepEqual(result.alternatives, []);
  });
});

Deno.test("POST /v1/translate with source auto passes items already in the target language through", async () => {
  await withService(async (service) => {
    const body = await expectBody(
      await translate(service, { target: "en", texts: [ENGLISH, FRENCH, ENGLISH] }),
      200,
      TranslateResponseSchema,
    );
    assert.equal(body.results[0].text, ENGLISH);
    assert.equal(body.results[2].text, ENGLISH);
    assert.notEqual(body.results[1].text, FRENCH);
    assert.equal(body.source, "en", "source is the language detected for most items");
    assert.equal(body.engine, "local-llm");
  });
});

Deno.test("POST /v1/translate names no engine when every item passes through", async () => {
  await withService(async (service) => {
    const body = await expectBody(
      await translate(service, { target: "en", texts: [ENGLISH, "12345 !!!"] }),
      200,
      TranslateResponseSchema,
    );
    assert.equal(body.engine, "passthrough");
    assert.deepEqual(body.results.map((r) => r.text), [ENGLISH, "12345 !!!"]);
    assert.equal(body.results[1].detected_source, "und");
  });
});

Deno.test("POST /v1/translate breaks a source tie in favour of the earliest language", async () => {
  await withService(async (service) => {
    const body = await expectBody(
      await translate(service, { target: "es", texts: [GERMAN, FRENCH] }),
      200,
      TranslateResponseSchema,
    );
    assert.equal(body.source, "de");
  });
});

Deno.test("POST /v1/translate with an explicit source still reports each item's detected language", async () => {
  await withService(async (service) => {
    const body = await expectBody(
      await translate(service, { source: "fr", target: "de", texts: [FRENCH, ENGLISH] }),
      200,
      TranslateResponseSchema,
    );
    assert.equal(body.source, "fr");
    assert.deepEqual(body.results.map((r) => r.detected_source), ["fr", "en"]);
    assert.notEqual(body.results[1].text, ENGLISH, "explicit source: the item is translated");
  });
});

Deno.test("POST /v1/translate counts usage in code points, an emoji as one", async () => {
  await withService(async (service) => {
    const texts = ["😀😀😀", ENGLISH];
    const body = await expectBody(
      await translate(service, { target: "en", texts }),
      200,
      TranslateResponseSchema,
    );
    assert.equal(body.usage.input_chars, 3 + [...ENGLISH].length);
    assert.equal(body.usage.output_chars, 3 + [...ENGLISH].length);
  });
});

Deno.test("POST /v1/translate returns up to 3 distinct alternatives when asked", async () => {
  await withService(async (service) => {
    const body = await expectBody(
      await translate(service, {
        target: "en",
        texts: [FRENCH],
        options: { return_alternatives: true },
      }),
      200,
      TranslateResponseSchema,
    );
    const { alternatives, text, confidence } = body.results[0];
    assert.ok(alternatives.length <= 3);
    assert.equal(new Set(alternatives).size, alternatives.length, "alternatives are distinct");
    assert.ok(!alternatives.includes(text), "an alternative differs from the translation");
    assert.ok(confidence >= 0 && confidence <= 1);
  });
});

Deno.test("POST /v1/translate with preserve_formatting keeps line breaks and indentation", async () => {
  await withService(async (service) => {
    const text = `  ${FRENCH}\n\n\t${GERMAN}\n`;
    const body = await expectBody(
      await translate(service, {
        source: "fr",
        target: "en",
        texts: [text],
        options: { preserve_formatting: true },
      }),
      200,
      TranslateResponseSchema,
    );
    assert.match(body.results[0].text, /^ {2}\S[^\n]*\n\n\t\S[^\n]*\n$/);
  });
});

Deno.test("POST /v1/translate stores history with X-Svc-Client, except sensitive requests", async () => {
  await withService(async (service) => {
    await expectBody(
      await translate(service, { target: "en", texts: [FRENCH] }, { "x-svc-client": "editor/1.2" }),
      200,
      TranslateResponseSchema,
    );
    const secret = "Mon mot de passe secret est tournesol.";
    const sensitive = await expectBody(
      await translate(service, { target: "en", texts: [secret], options: { sensitive: true } }),
      200,
      TranslateResponseSchema,
    );
    const rows = service.history.recent();
    assert.equal(rows.length, 1);
    assert.deepEqual(rows[0].texts, [FRENCH]);
    assert.equal(rows[0].client, "editor/1.2");
    const everything = service.logs.join("\n") + JSON.stringify(rows);
    assert.ok(!everything.includes("tournesol"), "sensitive text is nowhere");
    assert.ok(!everything.includes(sensitive.results[0].text));
    assert.ok(service.logs.some((line) => line.includes("POST /v1/translate 200")));
  });
});

const LIMIT_CASES = [
  { name: "128 items", texts: () => Array(128).fill(ENGLISH), status: 200 },
  {
    name: "129 items",
    texts: () => Array(129).fill(ENGLISH),
    status: 413,
    code: "batch_too_large",
  },
  { name: "8000 code points", texts: () => [englishOf(8000)], status: 200 },
  {
    name: "8001 code points",
    texts: () => [englishOf(8001)],
    status: 413,
    code: "payload_too_large",
  },
  { name: "8000 emoji (16000 UTF-16 units)", texts: () => ["😀".repeat(8000)], status: 200 },
  { name: "8001 emoji", texts: () => ["😀".repeat(8001)], status: 413, code: "payload_too_large" },
  {
    name: "50000 in total",
    texts: () => [...Array(6).fill(englishOf(8000)), englishOf(2000)],
    status: 200,
  },
  {
    name: "50001 in total",
    texts: () => [...Array(6).fill(englishOf(8000)), englishOf(2001)],
    status: 413,
    code: "payload_too_large",
  },
] as const;

Deno.test("POST /v1/translate enforces the limits at their exact boundaries", async () => {
  await withService(async (service) => {
    for (const limit of LIMIT_CASES) {
      const response = await translate(service, { target: "en", texts: limit.texts() });
      if (limit.status === 200) {
        const body = await expectBody(response, 200, TranslateResponseSchema);
        assert.equal(body.results.length, limit.texts().length, limit.name);
      } else {
        await expectError(response, limit.status, limit.code, "texts");
      }
    }
  });
});

const ERROR_CASES: {
  name: string;
  body: unknown;
  status: number;
  code: string;
  param: string | null;
}[] = [
  {
    name: "malformed JSON",
    body: '{"target": "en",',
    status: 400,
    code: "invalid_request",
    param: null,
  },
  {
    name: "a body that is not an object",
    body: "[1]",
    status: 400,
    code: "invalid_request",
    param: null,
  },
  {
    name: "an unknown field",
    body: { target: "en", texts: ["a"], colour: 1 },
    status: 400,
    code: "invalid_request",
    param: "colour",
  },
  {
    name: "an unknown option",
    body: { target: "en", texts: ["a"], options: { foo: true } },
    status: 400,
    code: "invalid_request",
    param: "options.foo",
  },
  {
    name: "a missing target",
    body: { texts: ["a"] },
    status: 400,
    code: "invalid_request",
    param: "target",
  },
  {
    name: "a target that is not a string",
    body: { target: 7, texts: ["a"] },
    status: 400,
    code: "invalid_request",
    param: "target",
  },
  {
    name: "an unsupported target",
    body: { target: "xx", texts: ["a"] },
    status: 422,
    code: "unsupported_language",
    param: "target",
  },
  {
    name: "an unsupported source",
    body: { source: "ru", target: "en", texts: ["a"] },
    status: 422,
    code: "unsupported_language",
    param: "source",
  },
  {
    name: "empty texts",
    body: { target: "en", texts: [] },
    status: 400,
    code: "invalid_request",
    param: "texts",
  },
  {
    name: "a missing texts",
    body: { target: "en" },
    status: 400,
    code: "invalid_request",
    param: "texts",
  },
  {
    name: "an item that is not a string",
    body: { target: "en", texts: [1] },
    status: 400,
    code: "invalid_request",
    param: "texts",
  },
  {
    name: "an unknown mode",
    body: { target: "en", texts: ["a"], mode: "poem" },
    status: 400,
    code: "invalid_request",
    param: "mode",
  },
  {
    name: "an unknown engine",
    body: { target: "en", texts: ["a"], options: { engine: "gpt" } },
    status: 400,
    code: "invalid_request",
    param: "options.engine",
  },
  {
    name: "html format (feature off)",
    body: { target: "en", texts: ["<b>a</b>"], format: "html" },
    status: 400,
    code: "invalid_request",
    param: "format",
  },
  {
    name: "a glossary (feature off)",
    body: { target: "en", texts: ["a"], options: { glossary_id: "g1" } },
    status: 400,
    code: "invalid_request",
    param: "options.glossary_id",
  },
  {
    name: "a named engine that is not ready",
    body: { target: "en", texts: [FRENCH], options: { engine: "engine-one" } },
    status: 503,
    code: "engine_unavailable",
    param: null,
  },
  {
    name: "a model that is not installed",
    body: {
      target: "en",
      texts: [FRENCH],
      options: { engine: "local-llm", model: "nobody/nothing" },
    },
    status: 503,
    code: "engine_unavailable",
    param: null,
  },
];

Deno.test("POST /v1/translate answers every error row with its code, status and param", async () => {
  await withService(async (service) => {
    for (const row of ERROR_CASES) {
      const response = await translate(service, row.body);
      const body = await expectError(response, row.status, row.code, row.param);
      assert.equal(
        response.headers.get("svc-api-version"),
        null,
        `${row.name}: errors carry no version`,
      );
      assert.ok(body.error.message.length > 0, row.name);
    }
  });
});

Deno.test("POST /v1/translate refuses a body that is not declared as JSON", async () => {
  await withService(async (service) => {
    const response = await fetch(`${service.url}/v1/translate`, {
      method: "POST",
      headers: { "x-svc-token": service.token, "content-type": "text/plain" },
      body: JSON.stringify({ target: "en", texts: ["a"] }),
    });
    await expectError(response, 400, "invalid_request", null);
  });
});

Deno.test("POST /v1/translate refuses a body over 1 MiB with payload_too_large", async () => {
  await withService(async (service) => {
    const body = JSON.stringify({ target: "en", texts: ["a"], pad: "x".repeat(1024 * 1024) });
    await expectError(await translate(service, body), 413, "payload_too_large", "texts");
  });
});

Deno.test("POST /v1/translate refuses a bad X-Svc-Client", async () => {
  await withService(async (service) => {
    for (const client of ["x".repeat(129), "café"]) {
      await expectError(
        await translate(service, { target: "en", texts: ["a"] }, { "x-svc-client": client }),
        400,
        "invalid_request",
        "X-Svc-Client",
      );
    }
    const ok = await translate(service, { target: "en", texts: [ENGLISH] }, {
      "x-svc-client": "x".repeat(128),
    });
    await expectBody(ok, 200, TranslateResponseSchema);
  });
});

Deno.test("POST /v1/translate answers 503 engine_unavailable with Retry-After when the engine queue is full", async () => {
  const service = await startTranslationService({
    localQueue: { concurrency: 1, maxWaiting: 0, retryAfterSeconds: 2 },
  });
  try {
    // A long job (64 items through the model) and short probes: with one slot and no waiting
    // room, whichever request arrives while another holds the slot is refused.
    const texts = Array.from({ length: 64 }, (_, i) => `${FRENCH} Numéro ${i}.`);
    const long = translate(service, { source: "fr", target: "en", texts });
    const probes: Response[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const probe = await translate(service, { source: "fr", target: "en", texts: [FRENCH] });
      probes.push(probe);
      if (probe.status === 503) refused = probe;
      else await probe.body?.cancel();
    }
    const first = await long;
    if (first.status === 503) refused = first;
    else await first.body?.cancel();
    assert.ok(refused, "one request overlapped another and was refused");
    assert.equal(refused.headers.get("retry-after"), "2");
    await expectError(refused, 503, "engine_unavailable", null);
  } finally {
    await service.stop();
  }
});
