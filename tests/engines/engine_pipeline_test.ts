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
