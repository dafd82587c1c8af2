import assert from "node:assert/strict";
import { EngineUnavailableError, type TranslationJob } from "../../engines/engine.ts";
import { EnginePipeline } from "../../engines/engine_pipeline.ts";
import { EngineBusyError } from "../../engines/engine_queue.ts";
import { createBuiltinEngine } from "../../engines/builtin/builtin_engine.ts";
import { createOllamaEngine } from "../../engines/chat/ollama.ts";
import { createLmStudioEngine } from "../../engines/chat/lm_studio.ts";
import { SettingsSchema } from "../../schemas/settings.ts";
import {
  closedPortUrl,
  FIXTURE_MODEL,
  FIXTURE_MODELS_DIR,
} from "../support/translation_service.ts";

/** Engine settings whose backends are down (a port nothing listens on). */
function downBackends() {
  return SettingsSchema.parse({
    engines: {
      "engine-one": { base_url: closedPortUrl() },
      "engine-two": { base_url: closedPortUrl() },
    },
  }).engines;
}

const JOB: TranslationJob = {
  items: [{ text: "Bonjour tout le monde", source: "fr" }],
  target: "en",
  mode: "paragraph",
  alternatives: false,
};

function engines(defaultModel = FIXTURE_MODEL) {
  return [
    createBuiltinEngine({ modelsDir: FIXTURE_MODELS_DIR, defaultModel, maxNewTokens: 6 }),
    createOllamaEngine(downBackends()["engine-one"]),
    createLmStudioEngine(downBackends()["engine-two"]),
  ];
}

Deno.test("EnginePipeline auto skips engines that are not ready and names the one that served", async () => {
  const pipeline = new EnginePipeline(engines(), {
    order: ["engine-one", "engine-two", "local-llm"],
  });
  try {
    const reports = await pipeline.reports();
    assert.deepEqual(reports.map((r) => r.engine.id), ["engine-one", "engine-two", "local-llm"]);
    const served = await pipeline.translate(JOB, "auto");
    assert.equal(served.engine, "local-llm");
    assert.equal(served.outcome.model, FIXTURE_MODEL);
    assert.equal(served.outcome.items.length, 1);
  } finally {
    await pipeline.close();
  }
});

Deno.test("EnginePipeline auto with no ready engine throws EngineUnavailableError", async () => {
  const pipeline = new EnginePipeline(engines("missing/model"), { order: ["local-llm"] });
  try {
    await assert.rejects(pipeline.translate(JOB, "auto"), EngineUnavailableError);
    await assert.rejects(pipeline.translate(JOB, "engine-two"), EngineUnavailableError);
    await assert.rejects(pipeline.translate(JOB, "compatible-api"), /not registered/);
  } finally {
    await pipeline.close();
  }
});

Deno.test("EnginePipeline answers EngineBusyError when an engine's queue is full", async () => {
  const pipeline = new EnginePipeline(engines(), {
    order: ["local-llm"],
    queues: { "local-llm": { concurrency: 1, maxWaiting: 0 } },
  });
  try {
    const first = pipeline.translate(JOB, "local-llm");
    await assert.rejects(pipeline.translate(JOB, "local-llm"), EngineBusyError);
    await first;
  } finally {
    await pipeline.close();
  }
});

Deno.test("EnginePipeline refuses two engines with the same id", () => {
  const twice = [
    createOllamaEngine(downBackends()["engine-one"]),
    createOllamaEngine(downBackends()["engine-one"]),
  ];
  assert.throws(() => new EnginePipeline(twice, { order: [] }), RangeError);
});

/**
 * A model runner whose `GET /api/tags` answers the current `models` while open; closed, requests
 * wait until it reopens (a runner slow to answer, as any probe is on a busy event loop).
 */
class GatedRunner {
  models = ["first:latest"];
  /** Settles when the next request arrives (replace it before each wait). */
  asked = Promise.withResolvers<void>();
  #open = true;
  #release = Promise.withResolvers<void>();
  readonly server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (): Promise<Response> => {
      this.asked.resolve();
      if (!this.#open) await this.#release.promise;
      return Response.json({ models: this.models.map((name) => ({ name })) });
    },
  );

  close(): void {
    this.#open = false;
    this.#release = Promise.withResolvers<void>();
  }

  reopen(): void {
    this.#open = true;
    this.#release.resolve();
  }

  settings() {
    return SettingsSchema.parse({
      engines: {
        // The engine's own model-list cache off: every round asks the runner.
        "engine-one": { base_url: `http://127.0.0.1:${this.server.addr.port}`, status_cache_ms: 0 },
      },
    }).engines["engine-one"];
  }
}

function pipelineOn(runner: GatedRunner, statusStaleMs?: number) {
  return new EnginePipeline([createOllamaEngine(runner.settings())], {
    order: ["engine-one"],
    statusTtlMs: 1,
    statusStaleMs,
  });
}

const modelsOf = async (pipeline: EnginePipeline) =>
  (await pipeline.reports())[0].status.models?.map((model) => model.id);
/** Lets the event loop run other callbacks (the runner's server) a few times. */
const loopTurns = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};

Deno.test("EnginePipeline answers with the last round while the next one probes, then with the new one", async () => {
  const runner = new GatedRunner();
  const pipeline = pipelineOn(runner, 60_000);
  try {
    assert.deepEqual(await modelsOf(pipeline), ["first:latest"]);
    runner.close();
    runner.models = ["second:latest"];
    runner.asked = Promise.withResolvers();
    await loopTurns(); // past the 1 ms TTL
    // The runner holds the new probe; the answer is the last round's, without waiting for it.
    let answered = false;
    const models1 = modelsOf(pipeline).finally(() => (answered = true));
    await runner.asked.promise;
    await loopTurns();
    assert.equal(answered, true, "waited for the runner");
    assert.deepEqual(await models1, ["first:latest"]);
    runner.reopen();
    let models: unknown;
    // Each call answers at once (the last round, or the new one once it finished).
    do {
      await loopTurns();
      models = await modelsOf(pipeline);
    } while (models?.toString() === "first:latest");
    assert.deepEqual(models, ["second:latest"]);
  } finally {
    runner.reopen();
    await pipeline.close();
    await runner.server.shutdown();
  }
});

Deno.test("EnginePipeline with statusStaleMs 0, or after reconfigure, waits for the new round", async () => {
  const runner = new GatedRunner();
  const pipeline = pipelineOn(runner, 0);
  const stale = pipelineOn(runner, 60_000);
  try {
    assert.deepEqual(await modelsOf(pipeline), ["first:latest"]);
    assert.deepEqual(await modelsOf(stale), ["first:latest"]);
    runner.close();
    runner.models = ["second:latest"];
    await loopTurns();
    stale.reconfigure([createOllamaEngine(
      SettingsSchema.parse({
        engines: { "engine-one": { base_url: `http://127.0.0.1:${runner.server.addr.port}` } },
      }).engines["engine-one"],
    )], ["engine-one"]);
    for (const waiting of [pipeline, stale]) {
      runner.asked = Promise.withResolvers();
      let answered = false;
      const models = modelsOf(waiting).finally(() => (answered = true));
      await runner.asked.promise;
      await loopTurns();
      assert.equal(answered, false, "answered before the runner did");
      runner.reopen();
      assert.deepEqual(await models, ["second:latest"]);
      runner.close();
      await loopTurns();
    }
  } finally {
    runner.reopen();
    await pipeline.close();
    await stale.close();
    await runner.server.shutdown();
  }
});
