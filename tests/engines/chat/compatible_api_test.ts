/**
 * compatible-api against a real `tolk infer` on the tiny random-weight GGUF: its answers are
 * gibberish, but grammar-constrained JSON makes them parseable, so the success path runs end to
 * end. One daemon serves the tests that need one; it starts inside the test (never at module load,
 * so a `--filter` run cannot leak it).
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { createCompatibleApiEngine } from "../../../engines/chat/compatible_api.ts";
import { EngineUnavailableError } from "../../../engines/engine.ts";
import { SettingsSchema } from "../../../schemas/settings.ts";
import { HealthResponseSchema, TranslateResponseSchema } from "../../../schemas/translation.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import { startInferDaemon } from "../../support/infer_daemon.ts";
import { startChatCompletionsStandIn } from "../../support/chat_completions_stand_in.ts";
import {
  engineCapabilities,
  FRENCH,
  GERMAN,
  postTranslate,
  translateOk,
  translateOverWebSocket,
} from "../../support/chat_engine_checks.ts";
import { startTranslationService } from "../../support/translation_service.ts";

const API_KEY = "compatible-api-test-key";
/** The fixture's trained context; batches are packed against it. */
const TINY_CONTEXT = 2048;

const BASE_SETTINGS = { api_key: API_KEY, context_tokens: TINY_CONTEXT, status_cache_ms: 0 };

function compatibleApi(extra: Record<string, unknown> = {}) {
  const settings = SettingsSchema.parse({
    engines: { "compatible-api": { ...BASE_SETTINGS, ...extra } },
  });
  return createCompatibleApiEngine(settings.engines["compatible-api"]);
}

Deno.test("compatible-api without base_url is listed but not ready, and refuses jobs", async () => {
  const engine = compatibleApi({ base_url: null });
  assert.deepEqual(await engine.status(), { ready: false, models: null });
  await assert.rejects(
    engine.translate({
      items: [{ text: "Bonjour", source: "fr" }],
      target: "de",
      mode: "paragraph",
      alternatives: false,
    }),
    (error: Error) => error instanceof EngineUnavailableError && /no base_url/.test(error.message),
  );
});

Deno.test("compatible-api is not ready while tolk infer's model file is missing; requests get 503 saying so", async () => {
  const model = join(await Deno.makeTempDir({ prefix: "tolk-missing-" }), "absent.gguf");
  const daemon = await startInferDaemon({ model, env: { SVC_API_KEY: API_KEY }, waitReady: false });
  const settings = {
    engines: {
      // No other engine is ready, so /v1/health's `ready` is compatible-api's alone.
      "local-llm": { model: "tolk-test/not-installed" },
      "compatible-api": { ...BASE_SETTINGS, base_url: daemon.baseUrl },
    },
  };
  const service = await startTranslationService({ settings, statusTtlMs: 0 });
  const reason = 'model "absent" is not available (the server lists it with status "missing")';
  try {
    // The daemon lists its model (status "missing") and answers its own /health 503.
    const engine = await engineCapabilities(service, "compatible-api");
    assert.equal(engine.ready, false);
    assert.deepEqual(engine.models, [{ id: "absent", name: "absent", ready: false }]);
    const health = await fetch(`${service.url}/v1/health`);
    assert.equal((await expectBody(health, 200, HealthResponseSchema)).ready, false);
    const named = { target: "en", texts: [FRENCH], options: { engine: "compatible-api" } };
    const error = await expectError(await postTranslate(service, named), 503, "engine_unavailable");
    assert.equal(error.error.message, `compatible-api is unavailable: ${reason}`);
    const auto = { target: "en", texts: [FRENCH] };
    const none = await expectError(await postTranslate(service, auto), 503, "engine_unavailable");
    assert.ok(none.error.message.includes(`compatible-api: ${reason}`), none.error.message);
  } finally {
    await service.stop();
    assert.equal(await daemon.stop(), 0);
    await Deno.remove(dirname(model), { recursive: true });
  }
});

Deno.test("compatible-api asks again for one text the server's context refuses, with the room its refusal names and the schema's bound kept", async () => {
  const paragraph = "The weather is lovely today and we are going to the beach. ".repeat(10).trim();
  const backend = startChatCompletionsStandIn({
    completions: [
      {
        status: 400,
        body: {
          error: {
            message: "this model's context is 2048 tokens; the request needs 1294 prompt tokens " +
              "+ 1943 max_tokens",
            type: "invalid_request_error",
            code: "context_length_exceeded",
          },
        },
      },
      JSON.stringify({ "1": "Das Wetter ist heute schön." }),
    ],
  });
  try {
    const outcome = await compatibleApi({ base_url: backend.baseUrl, context_tokens: 4096 })
      .translate({
        items: [{ text: paragraph, source: "en" }],
        target: "de",
        mode: "paragraph",
        alternatives: false,
      });
    assert.equal(outcome.items[0].text, "Das Wetter ist heute schön.");
    assert.equal(backend.chats.length, 2);
    const [first, second] = backend.chats as {
      max_tokens: number;
      response_format: { json_schema: { schema: { properties: Record<string, unknown> } } };
    }[];
    // 2048 − 1294, less the margin: what the server says fits.
    assert.ok(second.max_tokens <= 2048 - 1294 && second.max_tokens < first.max_tokens);
    // The text's bound in characters is not lowered with it: a grammar would cut a translation
    // there and the cut would pass as whole.
    assert.deepEqual(
      second.response_format.json_schema.schema.properties,
      first.response_format.json_schema.schema.properties,
    );
  } finally {
    await backend.stop();
  }
});

Deno.test("compatible-api whose model list is rate-limited answers 503 with the server's Retry-After, naming itself once", async () => {
  const backend = startChatCompletionsStandIn({
    modelsReply: {
      status: 429,
      body: { error: { message: "too many requests" } },
      headers: { "retry-after": "20" },
    },
  });
  const service = await startTranslationService({
    settings: { engines: { "compatible-api": { ...BASE_SETTINGS, base_url: backend.baseUrl } } },
    statusTtlMs: 0,
  });
  try {
    const response = await postTranslate(service, {
      target: "de",
      texts: [FRENCH],
      options: { engine: "compatible-api" },
    });
    assert.equal(response.headers.get("retry-after"), "20");
    const body = await expectError(response, 503, "engine_unavailable");
    assert.equal(body.error.message.match(/compatible-api/g)?.length, 1, body.error.message);
  } finally {
    await service.stop();
    await backend.stop();
  }
});

Deno.test("compatible-api against a real tolk infer", async (t) => {
  const daemon = await startInferDaemon({ env: { SVC_API_KEY: API_KEY } });
  const SETTINGS = { ...BASE_SETTINGS, base_url: daemon.baseUrl };
  try {
    await t.step("compatible-api lists the server's models with its key and is ready", async () => {
      const status = await compatibleApi({ base_url: daemon.baseUrl }).status();
      assert.equal(status.ready, true);
      assert.deepEqual(status.models, [{ id: "tiny", name: "tiny", ready: true }]);
    });

    await t.step("compatible-api translates a batch into one non-empty text per item", async () => {
      const outcome = await compatibleApi({ base_url: daemon.baseUrl }).translate({
        items: [{ text: "Bonjour", source: "fr" }, { text: "Merci", source: "fr" }],
        target: "de",
        mode: "message",
        alternatives: false,
      });
      assert.equal(outcome.model, "tiny");
      assert.equal(outcome.items.length, 2);
      for (const item of outcome.items) {
        assert.ok(item.text.length > 0);
        assert.equal(item.confidence, null);
        assert.deepEqual(item.alternatives, []);
      }
    });

    await t.step(
      "compatible-api with a wrong key is not ready and a named request gets 503 naming the 401",
      async () => {
        const settings = { engines: { "compatible-api": { ...SETTINGS, api_key: "wrong" } } };
        const service = await startTranslationService({ settings, statusTtlMs: 0 });
        try {
          // The model list needs the key too: the engine is not ready and says nothing it cannot do.
          assert.equal((await engineCapabilities(service, "compatible-api")).ready, false);
          const request = { target: "en", texts: [FRENCH], options: { engine: "compatible-api" } };
          const error = await expectError(
            await postTranslate(service, request),
            503,
            "engine_unavailable",
          );
          assert.match(error.error.message, /compatible-api.*401/);
        } finally {
          await service.stop();
        }
      },
    );

    await t.step(
      "compatible-api translates through POST /v1/translate and the WebSocket, alternatives included",
      async () => {
        const service = await startTranslationService({
          settings: { engines: { "compatible-api": SETTINGS } },
          statusTtlMs: 0,
        });
        try {
          const capabilities = await engineCapabilities(service, "compatible-api");
          assert.equal(capabilities.ready, true);
          assert.equal(capabilities.name, "Chat-completions server");
          const request = {
            target: "en",
            texts: [FRENCH, GERMAN],
            options: { engine: "compatible-api", return_alternatives: true },
          };
          const body = await translateOk(service, request);
          assert.equal(body.engine, "compatible-api");
          assert.equal(body.model, "tiny");
          for (const result of body.results) {
            assert.ok(result.text.length > 0);
            assert.ok(result.alternatives.length <= 3);
            assert.ok(result.confidence >= 0 && result.confidence <= 1);
          }
          const reply = TranslateResponseSchema.parse(
            await translateOverWebSocket(service, {
              ...request,
              options: { engine: "compatible-api" },
            }),
          );
          assert.equal(reply.engine, "compatible-api");
          assert.equal(reply.results.length, 2);
        } finally {
          await service.stop();
        }
      },
    );
  } finally {
    assert.equal(await daemon.stop(), 0);
  }
});

Deno.test("compatible-api never passes on an api_key written with a trailing newline that the server echoes, in a message or a log", async () => {
  // A key pasted or read from a file ends with a line break; fetch sends it trimmed, and the
  // server quotes what it got.
  const key = "sk-tolk-echoed-4f9a2c";
  const refusal = {
    status: 401,
    body: { error: { message: `Incorrect API key provided: ${key}.`, code: "invalid_api_key" } },
  };
  const backend = startChatCompletionsStandIn({ completions: [refusal] });
  const settings = { ...BASE_SETTINGS, api_key: `${key}\n`, base_url: backend.baseUrl };
  const service = await startTranslationService({
    settings: { engines: { "compatible-api": settings } },
    statusTtlMs: 0,
  });
  try {
    const request = { target: "de", texts: [FRENCH], options: { engine: "compatible-api" } };
    const body = await expectError(
      await postTranslate(service, request),
      503,
      "engine_unavailable",
    );
    assert.match(body.error.message, /Incorrect API key provided: \[redacted\]/);
    for (const text of [body.error.message, ...service.logs]) assert.ok(!text.includes(key), text);
  } finally {
    await service.stop();
    await backend.stop();
  }
});

Deno.test("compatible-api passes on a 429 to a chat request as 503 with the server's Retry-After, asking once", async () => {
  const limited = {
    status: 429,
    body: { error: { message: "Rate limit reached", code: "rate_limit_exceeded" } },
    headers: { "retry-after": "7" },
  };
  const backend = startChatCompletionsStandIn({ completions: [limited] });
  const service = await startTranslationService({
    settings: { engines: { "compatible-api": { ...BASE_SETTINGS, base_url: backend.baseUrl } } },
    statusTtlMs: 0,
  });
  try {
    const request = { target: "de", texts: [FRENCH], options: { engine: "compatible-api" } };
    const response = await postTranslate(service, request);
    assert.equal(response.headers.get("retry-after"), "7");
    const body = await expectError(response, 503, "engine_unavailable");
    assert.match(body.error.message, /^compatible-api is busy: .*HTTP 429: Rate limit reached/);
    assert.equal(backend.chats.length, 1);
  } finally {
    await service.stop();
    await backend.stop();
  }
});
