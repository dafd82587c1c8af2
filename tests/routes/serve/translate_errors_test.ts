import assert from "node:assert/strict";
import { ENGLISH, FRENCH } from "../../support/sample_texts.ts";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import {
  postTranslate as translate,
  withTranslationService as withService,
} from "../../support/translation_service.ts";

/** English words repeated up to exactly `n` code points (detected as English: no engine call). */
function englishOf(n: number): string {
  return "the house is small and the garden is green ".repeat(Math.ceil(n / 40)).slice(0, n);
}

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
  /** The message, where it names what was wrong. */
  message?: string;
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
    message: "target is required",
  },
  {
    name: "a target that is not a string",
    body: { target: 7, texts: ["a"] },
    status: 400,
    code: "invalid_request",
    param: "target",
    message: "target: expected string, received number",
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
    // It once read "texts: texts must hold at least one item".
    message: "texts must hold at least one item",
  },
  {
    name: "a missing texts",
    body: { target: "en" },
    status: 400,
    code: "invalid_request",
    param: "texts",
    message: "texts is required",
  },
  {
    name: "an item that is not a string",
    body: { target: "en", texts: [1] },
    status: 400,
    code: "invalid_request",
    param: "texts[0]",
    message: "texts[0]: expected string, received number",
  },
  {
    name: "texts that are a string, not an array",
    body: { target: "en", texts: "hello" },
    status: 400,
    code: "invalid_request",
    param: "texts",
    message: "texts: expected array, received string",
  },
  {
    name: "an option of the wrong type",
    body: { target: "en", texts: ["a"], options: { sensitive: "yes" } },
    status: 400,
    code: "invalid_request",
    param: "options.sensitive",
    message: "options.sensitive: expected boolean, received string",
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
    name: "an unknown format",
    body: { target: "en", texts: ["<b>a</b>"], format: "rtf" },
    status: 400,
    code: "invalid_request",
    param: "format",
  },
  {
    name: "a context over 8000 code points",
    body: { target: "en", texts: ["a"], options: { context: "😀".repeat(8001) } },
    status: 413,
    code: "payload_too_large",
    param: "options.context",
  },
  {
    name: "eleven instructions",
    body: { target: "en", texts: ["a"], options: { instructions: Array(11).fill("Be brief") } },
    status: 400,
    code: "invalid_request",
    param: "options.instructions",
    message: "options.instructions must have at most 10 items",
  },
  {
    name: "an empty model",
    body: { target: "en", texts: ["a"], options: { model: "" } },
    status: 400,
    code: "invalid_request",
    param: "options.model",
    message: "options.model must not be empty",
  },
  {
    name: "an instruction over 300 code points",
    body: { target: "en", texts: ["a"], options: { instructions: ["é".repeat(301)] } },
    status: 400,
    code: "invalid_request",
    param: "options.instructions[0]",
  },
  {
    name: "a tone of 100,000 characters",
    body: { target: "en", texts: ["a"], options: { tone: "formal ".repeat(14_286) } },
    status: 400,
    code: "invalid_request",
    param: "options.tone",
    message: "options.tone: over 300 characters",
  },
  {
    name: "a domain over 300 code points",
    body: { target: "en", texts: ["a"], options: { domain: "😀".repeat(301) } },
    status: 400,
    code: "invalid_request",
    param: "options.domain",
    message: "options.domain: over 300 characters",
  },
  {
    name: "an unknown glossary",
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
      if (row.message) assert.equal(body.error.message, row.message, row.name);
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

Deno.test("POST /v1/translate refuses a body that is not UTF-8 rather than replace its bytes", async () => {
  await withService(async (service) => {
    const json = new TextEncoder().encode('{"target": "en", "texts": ["caf\u00e9 X"]}');
    const latin1 = json.map((byte, index) => index === json.indexOf(0x58) ? 0xe9 : byte);
    const response = await fetch(`${service.url}/v1/translate`, {
      method: "POST",
      headers: { "x-svc-token": service.token, "content-type": "application/json" },
      body: latin1,
    });
    const body = await expectError(response, 400, "invalid_request", null);
    assert.equal(body.error.message, "the body is not valid UTF-8");
  });
});

Deno.test("POST /v1/translate refuses a body over 1 MiB with payload_too_large", async () => {
  await withService(async (service) => {
    const body = JSON.stringify({ target: "en", texts: ["a"], pad: "x".repeat(1024 * 1024) });
    await expectError(await translate(service, body), 413, "payload_too_large", "texts");
  });
});

Deno.test("POST /v1/translate reads a chunked body, and refuses one over 1 MiB as it arrives", async () => {
  const chunked = (...parts: string[]) =>
    ReadableStream.from(parts.map((part) => new TextEncoder().encode(part)));
  await withService(async (service) => {
    const ok = await translate(service, chunked('{"target": "en", ', `"texts": ["${ENGLISH}"]}`));
    await expectBody(ok, 200, TranslateResponseSchema);
    const pad = "x".repeat(512 * 1024);
    const big = chunked('{"target": "en", "texts": ["a"], "pad": "', pad, pad, '"}');
    await expectError(await translate(service, big), 413, "payload_too_large", "texts");
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

Deno.test("POST /v1/translate on auto with no engine ready says why for each engine set up", async () => {
  // A port nothing listens on: a listener opened and closed.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const deadPort = (listener.addr as Deno.NetAddr).port;
  listener.close();
  await withService(async (service) => {
    const body = await expectError(
      await translate(service, { source: "fr", target: "en", texts: [FRENCH] }),
      503,
      "engine_unavailable",
      null,
    );
    const message = body.error.message;
    assert.match(message, /^no translation engine is ready \(see GET \/v1\/capabilities\)/);
    assert.match(message, /local-llm: .*nobody\/nothing/);
    assert.match(
      message,
      new RegExp(`engine-two: cannot reach http://127\\.0\\.0\\.1:${deadPort}`),
    );
    assert.doesNotMatch(message, /compatible-api/, "an engine without base_url is not in use");
  }, {
    settings: {
      engines: {
        "local-llm": { model: "nobody/nothing" },
        "engine-two": { base_url: `http://127.0.0.1:${deadPort}`, status_cache_ms: 0 },
      },
    },
    statusTtlMs: 0,
  });
});
