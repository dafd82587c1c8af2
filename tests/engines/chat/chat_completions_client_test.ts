/**
 * The chat-completions engines (engine-two, compatible-api) against a stand-in backend that
 * answers what real servers rarely do: models listed as not servable, keys echoed back in errors.
 */
import assert from "node:assert/strict";
import { createCompatibleApiEngine } from "../../../engines/chat/compatible_api.ts";
import { EngineUnavailableError } from "../../../engines/engine.ts";
import { SettingsSchema } from "../../../schemas/settings.ts";
import { expectError } from "../../support/http_assertions.ts";
import {
  engineCapabilities,
  postTranslate,
  translateOk,
  translateOverWebSocket,
} from "../../support/chat_engine_checks.ts";
import {
  chatCompletion,
  type ChatCompletionsStandInOptions,
  startChatCompletionsStandIn,
} from "../../support/chat_completions_stand_in.ts";
import { startTranslationService } from "../../support/translation_service.ts";

const KEY = "sk-local-123";
const JOB = {
  items: [{ text: "Bonjour", source: "fr" }],
  target: "en" as const,
  mode: "paragraph",
  alternatives: false,
};

function compatibleApi(baseUrl: string) {
  const settings = SettingsSchema.parse({
    engines: { "compatible-api": { base_url: baseUrl, api_key: KEY, status_cache_ms: 0 } },
  });
  return createCompatibleApiEngine(settings.engines["compatible-api"]);
}

async function withBackend(
  options: ChatCompletionsStandInOptions,
  fn: (baseUrl: string) => Promise<void>,
): Promise<void> {
  const backend = startChatCompletionsStandIn(options);
  try {
    await fn(backend.baseUrl);
  } finally {
    await backend.stop();
  }
}

/** True when `text` holds the key, or its start (a message cut inside the key). */
function leaksKey(text: string): boolean {
  return text.includes(KEY.slice(0, 5));
}

/** `/v1/models` entries (tolk infer adds `status`), and whether a translation is attempted. */
const LISTED_MODELS = [
  { name: "status missing", entry: { id: "tiny", status: "missing" }, ready: false },
  { name: "status invalid", entry: { id: "tiny", status: "invalid" }, ready: false },
  { name: "status loading", entry: { id: "tiny", status: "loading" }, ready: false },
  { name: "status valid", entry: { id: "tiny", status: "valid" }, ready: true },
  { name: "no status (OpenAI, LM Studio)", entry: { id: "tiny" }, ready: true },
  {
    name: "a status that is no string",
    entry: { id: "tiny", status: { value: "x" } },
    ready: true,
  },
];

for (const { name, entry, ready } of LISTED_MODELS) {
  Deno.test(`compatible-api with its model listed with ${name} is ${ready ? "" : "not "}ready`, async () => {
    const options = { models: [entry], completions: ['{"1": "Hello"}'] };
    const backend = startChatCompletionsStandIn(options);
    try {
      const engine = compatibleApi(backend.baseUrl);
      if (ready) {
        assert.deepEqual(await engine.status(), {
          ready: true,
          models: [{ id: "tiny", name: "tiny", ready: true }],
        });
        assert.equal((await engine.translate(JOB)).items[0].text, "Hello");
        return;
      }
      const reason =
        `model "tiny" is not available (the server lists it with status "${entry.status}")`;
      assert.deepEqual(await engine.status(), {
        ready: false,
        models: [{ id: "tiny", name: "tiny", ready: false }],
        hint: reason,
      });
      await assert.rejects(
        engine.translate({ ...JOB, model: "tiny" }),
        (error: Error) =>
          error instanceof EngineUnavailableError &&
          error.message === `compatible-api is unavailable: ${reason}`,
      );
      assert.equal(backend.chats.length, 0);
    } finally {
      await backend.stop();
    }
  });
}

Deno.test("compatible-api without a configured model defaults to the first one it can serve", async () => {
  const models = [{ id: "first", status: "loading" }, { id: "second", status: "valid" }];
  await withBackend({ models, completions: ['{"1": "Hello"}'] }, async (baseUrl) => {
    const engine = compatibleApi(baseUrl);
    assert.equal((await engine.status()).ready, true);
    assert.equal((await engine.translate(JOB)).model, "second");
  });
});

/** Ways a backend echoes the key it was sent. */
const ECHOES = [
  {
    name: "an OpenAI-style 401",
    status: 401,
    body: {
      error: {
        message: `Incorrect API key provided: Bearer ${KEY}`,
        type: "invalid_request_error",
        code: "invalid_api_key",
      },
    },
  },
  { name: "an Ollama-style error string", status: 403, body: { error: `${KEY} may not` } },
  { name: "a plain-text 401", status: 401, body: `Unauthorized: ${KEY}` },
  {
    name: "a message whose 300-character cut falls inside the key",
    status: 401,
    body: { error: { message: `${"x".repeat(294)} ${KEY}` } },
  },
];

for (const { name, status, body } of ECHOES) {
  Deno.test(`compatible-api quotes ${name} without its api_key`, async () => {
    await withBackend({ completions: [{ status, body }] }, async (baseUrl) => {
      await assert.rejects(compatibleApi(baseUrl).translate(JOB), (error: Error) => {
        // A refused key is the server's, not the text's: the engine is unavailable.
        assert.ok(error instanceof EngineUnavailableError, String(error));
        assert.match(error.message, new RegExp(`HTTP ${status}: .*\\[red`));
        assert.ok(!leaksKey(error.message), error.message);
        return true;
      });
    });
    await withBackend({ modelsReply: { status, body } }, async (baseUrl) => {
      const engine = compatibleApi(baseUrl);
      const { hint } = await engine.status();
      assert.match(hint ?? "", new RegExp(`HTTP ${status}`));
      assert.ok(!leaksKey(hint ?? ""), hint ?? "no hint");
      await assert.rejects(
        engine.translate(JOB),
        (error: Error) => error instanceof EngineUnavailableError && !leaksKey(error.message),
      );
    });
  });
}

Deno.test("POST /v1/translate never shows the api_key a backend's 401 echoes, nor logs it: 503, the engine unavailable", async () => {
  const echo = ECHOES[0];
  await withBackend({ completions: [echo] }, async (baseUrl) => {
    const service = await startTranslationService({
      settings: { engines: { "compatible-api": { base_url: baseUrl, api_key: KEY } } },
      statusTtlMs: 0,
    });
    try {
      const request = { target: "en", texts: ["Bonjour"], options: { engine: "compatible-api" } };
      const response = await postTranslate(service, request);
      const error = await expectError(response, 503, "engine_unavailable");
      assert.match(error.error.message, /compatible-api is unavailable: .*HTTP 401/);
      assert.ok(!leaksKey(error.error.message), error.error.message);
      assert.ok(!service.logs.some(leaksKey), service.logs.join("\n"));
    } finally {
      await service.stop();
    }
  });
});

/** A server that records what reaches it and answers as a willing backend would. */
function startRecorder() {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (r) => {
    requests.push(`${r.method} ${new URL(r.url).pathname} ${await r.text()}`);
    return Response.json({ object: "list", data: [{ id: "elsewhere" }] });
  });
  return { url: `http://localhost:${server.addr.port}`, requests, stop: () => server.shutdown() };
}

Deno.test("a backend that redirects is not followed: the text goes nowhere else, the engine is not ready and requests get 503 naming the redirect", async () => {
  const elsewhere = startRecorder();
  const moved = (path: string) => ({
    status: 307,
    body: "",
    headers: { location: `${elsewhere.url}${path}` },
  });
  const redirecting = startChatCompletionsStandIn({ modelsReply: moved("/v1/models") });
  const redirectingChat = startChatCompletionsStandIn({
    completions: [moved("/v1/chat/completions"), moved("/v1/chat/completions")],
  });
  const service = await startTranslationService({
    settings: {
      engines: {
        "engine-two": { base_url: redirecting.baseUrl, status_cache_ms: 0 },
        "compatible-api": { base_url: redirectingChat.baseUrl, status_cache_ms: 0 },
      },
    },
    statusTtlMs: 0,
  });
  const named = (engine: string) => ({
    source: "fr",
    target: "en",
    texts: ["Bonjour, je voudrais une chambre."],
    options: { engine },
  });
  try {
    const lmStudio = await engineCapabilities(service, "engine-two");
    assert.deepEqual([lmStudio.ready, lmStudio.models], [false, null]);
    const refused = await expectError(
      await postTranslate(service, named("engine-two")),
      503,
      "engine_unavailable",
    );
    assert.match(
      refused.error.message,
      /HTTP 307 redirecting to http:\/\/localhost:\d+\/v1\/models/,
    );

    const http = await expectError(
      await postTranslate(service, named("compatible-api")),
      503,
      "engine_unavailable",
    );
    assert.match(http.error.message, /^compatible-api is unavailable: .*HTTP 307 redirecting/);
    const frame = await translateOverWebSocket(service, named("compatible-api"));
    assert.equal((frame as { error: { code: string } }).error.code, "engine_unavailable");

    assert.deepEqual(elsewhere.requests, []);
  } finally {
    await service.stop();
    await redirecting.stop();
    await redirectingChat.stop();
    await elsewhere.stop();
  }
});

const UNSENDABLE_KEYS = [
  { name: "Cyrillic and an emoji", key: "ключ-🔑-123" },
  { name: "Latin-1 letters (fetch would send them as single bytes)", key: "clé-schlüssel" },
];

for (const { name, key } of UNSENDABLE_KEYS) {
  Deno.test(`compatible-api whose api_key holds ${name} says so, not "cannot reach", and sends nothing`, async () => {
    const backend = startChatCompletionsStandIn({ completions: [JSON.stringify({ "1": "Hi" })] });
    const service = await startTranslationService({
      settings: {
        engines: {
          "compatible-api": { base_url: backend.baseUrl, api_key: key, status_cache_ms: 0 },
        },
      },
      statusTtlMs: 0,
    });
    try {
      assert.equal((await engineCapabilities(service, "compatible-api")).ready, false);
      const request = {
        source: "fr",
        target: "en",
        texts: ["Bonjour"],
        options: { engine: "compatible-api" },
      };
      const error = await expectError(
        await postTranslate(service, request),
        503,
        "engine_unavailable",
      );
      assert.match(error.error.message, /^compatible-api is unavailable: its api_key holds a /);
      assert.ok(!error.error.message.includes(key.slice(0, 4)), error.error.message);
      assert.equal(backend.chats.length, 0);
    } finally {
      await service.stop();
      await backend.stop();
    }
  });
}

Deno.test("compatible-api sends an api_key with a trailing newline as fetch trims it", async () => {
  await withBackend({ completions: [JSON.stringify({ "1": "Hello" })] }, async (baseUrl) => {
    const settings = SettingsSchema.parse({
      engines: { "compatible-api": { base_url: baseUrl, api_key: `${KEY}\n`, status_cache_ms: 0 } },
    });
    const outcome = await createCompatibleApiEngine(settings.engines["compatible-api"])
      .translate(JOB);
    assert.equal(outcome.items[0].text, "Hello");
  });
});

Deno.test("POST /v1/translate reads a thinking model's answer from reasoning_content when content is null", async () => {
  // vLLM's DeepSeek-R1 parser puts the whole output there when the model never writes </think>.
  const reasoned = (reasoning: string, finish: string) =>
    chatCompletion({ content: null, reasoning_content: reasoning }, finish);
  const answers = [
    reasoned('{"1": "Hello"}', "stop"),
    // Out of tokens while thinking: a cut answer, asked again in halves, not a failure.
    reasoned("The user wants two French lines in English. First,", "length"),
    reasoned('{"1": "Hello"}', "stop"),
    reasoned('{"2": "Thank you"}', "stop"),
  ];
  await withBackend({ completions: answers }, async (baseUrl) => {
    const service = await startTranslationService({
      settings: { engines: { "compatible-api": { base_url: baseUrl } } },
      statusTtlMs: 0,
    });
    try {
      const one = { target: "en", source: "fr", options: { engine: "compatible-api" } };
      const single = await translateOk(service, { ...one, texts: ["Bonjour"] });
      assert.equal(single.results[0].text, "Hello");
      const pair = await translateOk(service, { ...one, texts: ["Bonjour", "Merci"] });
      assert.deepEqual(pair.results.map((result) => result.text), ["Hello", "Thank you"]);
    } finally {
      await service.stop();
    }
  });
});

/** A 200 chat completion whose message content is `content` (any shape). */
Deno.test("POST /v1/translate reads a chat answer whose content is an array of text parts, as some proxies send it", async () => {
  const parts = [{ type: "text", text: '{"1": "Hel' }, { type: "text", text: 'lo"}' }];
  await withBackend({ completions: [chatCompletion({ content: parts })] }, async (baseUrl) => {
    const service = await startTranslationService({
      settings: { engines: { "compatible-api": { base_url: baseUrl, api_key: KEY } } },
      statusTtlMs: 0,
    });
    try {
      const request = { target: "en", texts: ["Bonjour"], options: { engine: "compatible-api" } };
      const body = await translateOk(service, request);
      assert.equal(body.results[0].text, "Hello");
    } finally {
      await service.stop();
    }
  });
});

Deno.test("POST /v1/translate quotes the error a backend sends in a 200 body, not 'no message content'", async () => {
  const answers = [
    { status: 200, body: { error: { message: `quota of ${KEY} used up`, code: "quota" } } },
    { status: 200, body: { error: "model crashed" } },
  ];
  await withBackend({ completions: answers }, async (baseUrl) => {
    const service = await startTranslationService({
      settings: { engines: { "compatible-api": { base_url: baseUrl, api_key: KEY } } },
      statusTtlMs: 0,
    });
    try {
      const request = { target: "en", texts: ["Bonjour"], options: { engine: "compatible-api" } };
      for (const said of [/quota of \[redacted\] used up/, /model crashed/]) {
        const error = await expectError(
          await postTranslate(service, request),
          500,
          "internal_error",
        );
        assert.match(error.error.message, /compatible-api failed: .*answered an error: /);
        assert.match(error.error.message, said);
      }
    } finally {
      await service.stop();
    }
  });
});
