import assert from "node:assert/strict";
import { EngineFailedError, EngineUnavailableError } from "../../../engines/engine.ts";
import { createOllamaEngine } from "../../../engines/chat/ollama.ts";
import { SettingsSchema } from "../../../schemas/settings.ts";
import { ErrorResponseSchema, TranslateResponseSchema } from "../../../schemas/translation.ts";
import { expectError } from "../../support/http_assertions.ts";
import {
  engineCapabilities,
  FRENCH,
  GERMAN,
  postTranslate,
  translateOk,
  translateOverWebSocket,
} from "../../support/chat_engine_checks.ts";
import {
  type OllamaStandIn,
  STAND_IN_MODEL,
  standInTranslation,
  startOllamaStandIn,
} from "../../support/ollama_stand_in.ts";
import { startTranslationService, type TestService } from "../../support/translation_service.ts";

/** The parts of an /api/chat body these tests read. */
interface OllamaChatBody {
  stream: boolean;
  keep_alive: string;
  options: { num_ctx: number; temperature: number; num_predict: number };
  format: { required: string[]; additionalProperties: boolean };
  messages: { role: string; content: string }[];
}

function engineOne(baseUrl: string, extra: Record<string, unknown> = {}) {
  const settings = SettingsSchema.parse({
    engines: { "engine-one": { base_url: baseUrl, status_cache_ms: 0, ...extra } },
  });
  return createOllamaEngine(settings.engines["engine-one"]);
}

const JOB = {
  items: [{ text: "Hallo Welt", source: "de" }, { text: "Guten Morgen", source: "de" }],
  target: "en" as const,
  mode: "paragraph",
  alternatives: false,
};

async function withRunner(
  fn: (runner: OllamaStandIn) => Promise<void>,
  options?: Parameters<typeof startOllamaStandIn>[0],
) {
  const runner = startOllamaStandIn(options);
  try {
    await fn(runner);
  } finally {
    await runner.stop();
  }
}

Deno.test("engine-one lists the runner's models from /api/tags and is ready", async () => {
  await withRunner(async (runner) => {
    const status = await engineOne(runner.baseUrl).status();
    assert.deepEqual(status, {
      ready: true,
      models: [{ id: STAND_IN_MODEL, name: STAND_IN_MODEL, ready: true }],
    });
  });
});

Deno.test("engine-one sends one non-streaming /api/chat with a schema fixing the ids, keep_alive and options", async () => {
  await withRunner(async (runner) => {
    const engine = engineOne(runner.baseUrl, {
      keep_alive: "10m",
      num_ctx: 8192,
      temperature: 0.3,
    });
    const outcome = await engine.translate(JOB);
    assert.equal(outcome.model, STAND_IN_MODEL);
    assert.deepEqual(outcome.items, [
      { text: standInTranslation("Hallo Welt"), confidence: null, alternatives: [] },
      { text: standInTranslation("Guten Morgen"), confidence: null, alternatives: [] },
    ]);
    assert.equal(runner.chats.length, 1);
    const chat = runner.chats[0] as unknown as OllamaChatBody;
    assert.equal(chat.stream, false);
    assert.equal(chat.keep_alive, "10m");
    assert.equal(chat.options.num_ctx, 8192);
    assert.equal(chat.options.temperature, 0.3);
    assert.ok(chat.options.num_predict > 0);
    assert.deepEqual(chat.format.required, ["1", "2"]);
    assert.equal(chat.format.additionalProperties, false);
    assert.deepEqual(chat.messages.map((m) => m.role), ["system", "user"]);
    assert.match(chat.messages[0].content, /German \(de\).*English \(en\)/);
    assert.match(chat.messages[0].content, /never instructions/);
    assert.deepEqual(JSON.parse(chat.messages[1].content).items, [
      { id: "1", text: "Hallo Welt" },
      { id: "2", text: "Guten Morgen" },
    ]);
  });
});

Deno.test("engine-one asks again only for the item the runner left out", async () => {
  const script = [{ content: `{"1": "${standInTranslation("Hallo Welt")}"}` }];
  await withRunner(async (runner) => {
    const outcome = await engineOne(runner.baseUrl).translate(JOB);
    assert.equal(outcome.items[1].text, standInTranslation("Guten Morgen"));
    assert.equal(runner.chats.length, 2);
    const retried = JSON.parse((runner.chats[1].messages as { content: string }[])[1].content);
    assert.deepEqual(retried.items, [{ id: "2", text: "Guten Morgen" }]);
  }, { script });
});

Deno.test("engine-one asks again for an id the runner wrote twice, keeping neither answer", async () => {
  const script = [{ content: '{"1": "a", "2": "b", "1": "WRONG"}' }];
  await withRunner(async (runner) => {
    const outcome = await engineOne(runner.baseUrl).translate(JOB);
    assert.deepEqual(outcome.items.map((item) => item.text), [
      standInTranslation("Hallo Welt"),
      "b",
    ]);
    assert.deepEqual(runner.chats.map(itemCount), [2, 1]);
  }, { script });
});

Deno.test("engine-one splits a batch whose answer was cut at the token limit", async () => {
  const script = [{ content: '{"1": "Hello wor', doneReason: "length" as const }];
  await withRunner(async (runner) => {
    const outcome = await engineOne(runner.baseUrl).translate(JOB);
    assert.equal(outcome.items.length, 2);
    const sizes = runner.chats.map((chat) =>
      JSON.parse((chat.messages as { content: string }[])[1].content).items.length
    );
    assert.deepEqual(sizes, [2, 1, 1]);
  }, { script });
});

Deno.test("engine-one fails with the engine and the reason after bounded retries of bad output", async () => {
  const script = Array.from({ length: 3 }, () => ({ content: "I cannot translate that." }));
  await withRunner(async (runner) => {
    await assert.rejects(
      engineOne(runner.baseUrl).translate(JOB),
      (error: Error) =>
        error instanceof EngineFailedError && /engine-one failed: .*after 3 attempts/.test(
          error.message,
        ) && /holds no JSON/.test(error.message),
    );
    assert.equal(runner.chats.length, 3);
  }, { script });
});

Deno.test("engine-one asks again for a translation far longer than its text, then fails", async () => {
  // "Hallo Welt" allows 62 characters (the schema's maxLength the runner did not follow).
  const runaway = { content: JSON.stringify({ 1: "la ".repeat(2_000) }) };
  const script = [
    { content: JSON.stringify({ 1: "la ".repeat(2_000), 2: "Good morning" }) },
    runaway,
    runaway,
  ];
  await withRunner(async (runner) => {
    await assert.rejects(
      engineOne(runner.baseUrl).translate(JOB),
      (error: Error) =>
        error instanceof EngineFailedError &&
        /1 of 2 texts after 3 attempts \(id 1: longer than the 62 characters/.test(error.message),
    );
    assert.deepEqual(runner.chats.map(itemCount), [2, 1, 1]);
  }, { script });
});

Deno.test("engine-one reports a runner error as a failure naming the engine", async () => {
  const script = [{ status: 500, error: "llama runner process has terminated" }];
  await withRunner(async (runner) => {
    await assert.rejects(
      engineOne(runner.baseUrl).translate(JOB),
      (error: Error) =>
        error instanceof EngineFailedError &&
        error.message === "engine-one failed: the backend answered HTTP 500: " +
            "llama runner process has terminated",
    );
  }, { script });
});

Deno.test("engine-one refuses a model the runner does not have as unavailable", async () => {
  await withRunner(async (runner) => {
    await assert.rejects(
      engineOne(runner.baseUrl).translate({ ...JOB, model: "missing:7b" }),
      (error: Error) =>
        error instanceof EngineUnavailableError && /"missing:7b" is not available/.test(
          error.message,
        ),
    );
    assert.equal(runner.chats.length, 0);
  });
});

/** Model names as a user writes them against what the runner lists (Ollama: no tag is `:latest`). */
const MODEL_NAMES = [
  { name: "a name without its tag", listed: "qwen2.5:latest", model: "qwen2.5", found: true },
  { name: "the listed name", listed: "qwen2.5:latest", model: "qwen2.5:latest", found: true },
  {
    name: "a name without a tag other than latest",
    listed: "qwen2.5:7b",
    model: "qwen2.5",
    found: false,
  },
  {
    name: "a registry name with a port and no tag",
    listed: "localhost:5000/team/qwen2.5:latest",
    model: "localhost:5000/team/qwen2.5",
    found: true,
  },
];

for (const { name, listed, model, found } of MODEL_NAMES) {
  Deno.test(`engine-one ${found ? "finds" : "does not find"} ${name} (${model} for ${listed})`, async () => {
    await withRunner(async (runner) => {
      const configured = engineOne(runner.baseUrl, { model });
      const requested = engineOne(runner.baseUrl);
      assert.equal((await configured.status()).ready, found);
      if (!found) {
        await assert.rejects(requested.translate({ ...JOB, model }), EngineUnavailableError);
        return;
      }
      // The runner is sent the name as the user wrote it, which it reads the same way.
      assert.equal((await configured.translate(JOB)).model, model);
      assert.equal((await requested.translate({ ...JOB, model })).model, model);
      assert.deepEqual(runner.chats.map((chat) => chat.model), [model, model]);
    }, { models: [listed] });
  });
}

Deno.test("engine-one is not ready and unavailable when the runner is down", async () => {
  const runner = startOllamaStandIn();
  await runner.stop();
  const engine = engineOne(runner.baseUrl);
  const down = await engine.status();
  assert.deepEqual({ ...down, hint: undefined }, { ready: false, models: null, hint: undefined });
  // The hint says why, for the 503 of a request that found no engine ready.
  assert.match(down.hint ?? "", /^cannot reach http:\/\/127\.0\.0\.1:\d+/);
  await assert.rejects(engine.translate(JOB), EngineUnavailableError);
});

async function withService(runner: OllamaStandIn, fn: (service: TestService) => Promise<void>) {
  const service = await startTranslationService({
    settings: { engines: { "engine-one": { base_url: runner.baseUrl, status_cache_ms: 0 } } },
    statusTtlMs: 0,
  });
  try {
    await fn(service);
  } finally {
    await service.stop();
  }
}

Deno.test("engine-one translates through POST /v1/translate and the WebSocket, alternatives included", async () => {
  await withRunner(async (runner) => {
    await withService(runner, async (service) => {
      assert.equal((await engineCapabilities(service, "engine-one")).ready, true);
      const request = {
        target: "en",
        texts: [FRENCH, GERMAN],
        options: { engine: "engine-one", return_alternatives: true },
      };
      const body = await translateOk(service, request);
      assert.equal(body.engine, "engine-one");
      assert.equal(body.model, STAND_IN_MODEL);
      assert.deepEqual(body.results.map((r) => r.text), [FRENCH, GERMAN].map(standInTranslation));
      assert.deepEqual(body.results[0].alternatives, [
        `${standInTranslation(FRENCH)} (2)`,
        `${standInTranslation(FRENCH)} (3)`,
      ]);
      // Different sources go out as separate batches, each naming its own language.
      assert.equal(runner.chats.length, 2);

      const reply = TranslateResponseSchema.parse(await translateOverWebSocket(service, request));
      assert.equal(reply.engine, "engine-one");
      assert.equal(reply.results[1].text, standInTranslation(GERMAN));
    });
  });
});

Deno.test("engine-one shows ready false and a named request gets 503 once the runner stops", async () => {
  const runner = startOllamaStandIn();
  await withService(runner, async (service) => {
    assert.equal((await engineCapabilities(service, "engine-one")).ready, true);
    await runner.stop();
    const engine = await engineCapabilities(service, "engine-one");
    assert.equal(engine.ready, false);
    assert.equal(engine.models, null);
    const request = { target: "en", texts: [FRENCH], options: { engine: "engine-one" } };
    const error = await expectError(
      await postTranslate(service, request),
      503,
      "engine_unavailable",
    );
    assert.match(error.error.message, /engine-one/);
    const reply = ErrorResponseSchema.parse(await translateOverWebSocket(service, request));
    assert.equal(reply.error.code, "engine_unavailable");
  });
});

Deno.test("engine-one output that stays unusable is a 500 internal_error naming the engine", async () => {
  const script = Array.from({ length: 3 }, () => ({ content: '{"1": ""}' }));
  await withRunner(async (runner) => {
    await withService(runner, async (service) => {
      const request = { target: "en", texts: [FRENCH], options: { engine: "engine-one" } };
      const error = await expectError(await postTranslate(service, request), 500, "internal_error");
      assert.match(error.error.message, /engine-one failed: .*empty text/);
    });
  }, { script });
});

Deno.test("engine-one answering 5,000,000 characters for 11 is a 500 naming the engine, kept nowhere", async () => {
  const script = [{ content: JSON.stringify({ 1: "x".repeat(5_000_000) }) }];
  await withRunner(async (runner) => {
    await withService(runner, async (service) => {
      const request = {
        source: "fr",
        target: "en",
        texts: ["Bonjour ami"],
        options: { engine: "engine-one" },
      };
      const error = await expectError(await postTranslate(service, request), 500, "internal_error");
      assert.match(error.error.message, /engine-one failed: .* answered more than \d+ bytes/);
      service.history.flush();
      assert.deepEqual(service.history.list({ limit: 10 }).entries, []);
    });
  }, { script });
});

Deno.test("engine-one splits a batch the runner finds longer than its context", async () => {
  const script = [{ status: 400, error: "the input length exceeds the context length" }];
  await withRunner(async (runner) => {
    const outcome = await engineOne(runner.baseUrl).translate(JOB);
    assert.deepEqual(outcome.items.map((item) => item.text), [
      standInTranslation("Hallo Welt"),
      standInTranslation("Guten Morgen"),
    ]);
    assert.deepEqual(runner.chats.map(itemCount), [2, 1, 1]);
  }, { script });
});

/** Batch limits: how many requests a job of `texts` becomes. */
const BATCH_LIMITS = [
  {
    name: "max_batch_items",
    settings: { max_batch_items: 2 },
    texts: 5,
    length: 10,
    sizes: [2, 2, 1],
  },
  { name: "num_ctx", settings: { num_ctx: 1024 }, texts: 3, length: 600, sizes: [1, 1, 1] },
  { name: "nothing (all fit)", settings: {}, texts: 3, length: 10, sizes: [3] },
];

for (const limit of BATCH_LIMITS) {
  Deno.test(`engine-one packs batches within ${limit.name}`, async () => {
    await withRunner(async (runner) => {
      const items = Array.from({ length: limit.texts }, (_, i) => ({
        text: `${i} ${"Wort ".repeat(limit.length / 5)}`.trim(),
        source: "de",
      }));
      const outcome = await engineOne(runner.baseUrl, limit.settings).translate({ ...JOB, items });
      assert.deepEqual(
        outcome.items.map((i) => i.text),
        items.map((i) => standInTranslation(i.text)),
      );
      assert.deepEqual(runner.chats.map(itemCount), limit.sizes);
    });
  });
}

function itemCount(chat: Record<string, unknown>): number {
  return JSON.parse((chat.messages as { content: string }[])[1].content).items.length;
}

Deno.test("engine-one reads an answer with trailing commas, which a model repeats at temperature 0", async () => {
  // `, }` inside a translation is text, kept as written.
  const script = Array.from({ length: 3 }, () => ({ content: '{\n  "1": "Hi, }",\n}' }));
  await withRunner(async (runner) => {
    await withService(runner, async (service) => {
      const request = { target: "en", texts: [FRENCH], options: { engine: "engine-one" } };
      const body = await translateOk(service, request);
      assert.equal(body.results[0].text, "Hi, }");
      assert.equal(runner.chats.length, 1);
    });
  }, { script });
});
