/**
 * engine-two (the desktop model server's OpenAI-compatible API) against a real `tolk infer` on
 * the tiny GGUF, and the `auto` pipeline falling back when that backend stops mid-run.
 */
import assert from "node:assert/strict";
import { createLmStudioEngine } from "../../../engines/chat/lm_studio.ts";
import { SettingsSchema } from "../../../schemas/settings.ts";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { expectError } from "../../support/http_assertions.ts";
import { startInferDaemon } from "../../support/infer_daemon.ts";
import { startChatCompletionsStandIn } from "../../support/chat_completions_stand_in.ts";
import {
  engineCapabilities,
  FRENCH,
  postTranslate,
  translateOk,
  translateOverWebSocket,
} from "../../support/chat_engine_checks.ts";
import { FIXTURE_MODEL, startTranslationService } from "../../support/translation_service.ts";

const TINY_CONTEXT = 2048;

Deno.test("engine-two reads /v1/models, translates, and is not ready once the server stops", async () => {
  const daemon = await startInferDaemon();
  const settings = SettingsSchema.parse({
    engines: {
      "engine-two": { base_url: daemon.baseUrl, context_tokens: TINY_CONTEXT, status_cache_ms: 0 },
    },
  });
  const engine = createLmStudioEngine(settings.engines["engine-two"]);
  try {
    assert.equal(engine.name, "Desktop model server (LM Studio)");
    assert.deepEqual(await engine.status(), {
      ready: true,
      models: [{ id: "tiny", name: "tiny", ready: true }],
    });
    const outcome = await engine.translate({
      items: [{ text: "Guten Tag", source: "de" }],
      target: "en",
      model: "tiny",
      mode: "selection",
      alternatives: true,
    });
    assert.equal(outcome.items.length, 1);
    assert.ok(outcome.items[0].text.length > 0);
    assert.ok(outcome.items[0].alternatives.length <= 3);
    // The address as LM Studio's documents show it, with /v1, is read as the root.
    const documented = SettingsSchema.parse({
      engines: { "engine-two": { base_url: `${daemon.baseUrl}/v1/`, status_cache_ms: 0 } },
    });
    assert.deepEqual(await createLmStudioEngine(documented.engines["engine-two"]).status(), {
      ready: true,
      models: [{ id: "tiny", name: "tiny", ready: true }],
    });
  } finally {
    await daemon.stop();
  }
  const down = await engine.status();
  assert.deepEqual({ ...down, hint: undefined }, { ready: false, models: null, hint: undefined });
  // The hint says why, for the 503 of a request that found no engine ready.
  assert.match(down.hint ?? "", /^cannot reach http:\/\/127\.0\.0\.1:\d+/);
});

Deno.test("auto falls back to the next engine when engine-two stops mid-run; capabilities follow", async () => {
  const daemon = await startInferDaemon();
  const service = await startTranslationService({
    settings: {
      engines: {
        order: ["engine-two", "local-llm", "engine-one", "compatible-api"],
        // The engine's own probe cache stays at its default: the failed request must clear it.
        "engine-two": { base_url: daemon.baseUrl, context_tokens: TINY_CONTEXT },
      },
    },
    statusTtlMs: 0,
  });
  let stopped = false;
  try {
    assert.equal((await engineCapabilities(service, "engine-two")).ready, true);
    const request = { target: "en", texts: [FRENCH] };
    const first = await translateOk(service, request);
    assert.equal(first.engine, "engine-two");
    const overWebSocket = TranslateResponseSchema.parse(
      await translateOverWebSocket(service, request),
    );
    assert.equal(overWebSocket.engine, "engine-two");

    assert.equal(await daemon.stop(), 0);
    stopped = true;
    const second = await translateOk(service, request);
    assert.equal(second.engine, "local-llm");
    assert.equal(second.model, FIXTURE_MODEL);
    const engine = await engineCapabilities(service, "engine-two");
    assert.equal(engine.ready, false);
    assert.equal(engine.models, null);

    const named = await postTranslate(service, { ...request, options: { engine: "engine-two" } });
    const error = await expectError(named, 503, "engine_unavailable");
    assert.match(error.error.message, /engine-two is unavailable: cannot reach/);
  } finally {
    if (!stopped) await daemon.stop();
    await service.stop();
  }
});

// LM Studio lists every downloaded model; without just-in-time loading it refuses the chat, with
// 404 in earlier releases and 400 in later ones; a model that fails to load (too large for the
// memory) is a 400 too. Neither is the request's fault: another engine may serve it.
const NOT_LOADED_REFUSALS = [
  {
    status: 404,
    message: "No models loaded. Please load a model in the developer page or use the " +
      "`lms load` command.",
  },
  {
    status: 400,
    message: "No models loaded. Please load a model in the developer page or use the " +
      "`lms load` command.",
  },
  {
    status: 400,
    message: 'Failed to load model "qwen2.5-7b-instruct". Error: Error loading model.',
  },
];

for (const refusal of NOT_LOADED_REFUSALS) {
  Deno.test(`engine-two refused with HTTP ${refusal.status} "${refusal.message.slice(0, 20)}…" answers 503 engine_unavailable quoting the server, over HTTP and WebSocket`, async () => {
    const notLoaded = {
      status: refusal.status,
      body: {
        error: {
          message: refusal.message,
          type: "invalid_request_error",
          param: "model",
          code: refusal.status === 404 ? "model_not_found" : null,
        },
      },
    };
    const backend = startChatCompletionsStandIn({ completions: [notLoaded, notLoaded] });
    const service = await startTranslationService({
      settings: { engines: { "engine-two": { base_url: backend.baseUrl, status_cache_ms: 0 } } },
      statusTtlMs: 0,
    });
    try {
      const request = { target: "en", texts: [FRENCH], options: { engine: "engine-two" } };
      const http = await expectError(
        await postTranslate(service, request),
        503,
        "engine_unavailable",
      );
      assert.equal(
        http.error.message,
        `engine-two is unavailable: the backend answered HTTP ${refusal.status}: ${refusal.message}`,
      );
      const frame = await translateOverWebSocket(service, request);
      assert.deepEqual(frame, http);
      assert.equal(backend.chats.length, 2);
    } finally {
      await service.stop();
      await backend.stop();
    }
  });
}
