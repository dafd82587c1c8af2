import assert from "node:assert/strict";
import type { TranslationJob } from "../../engines/engine.ts";
import { createEnginePipeline, engineSettingsSync } from "../../engines/engine_registry.ts";
import { type Settings, SettingsSchema } from "../../schemas/settings.ts";
import {
  closedPortUrl,
  FIXTURE_MODEL,
  FIXTURE_MODELS_DIR,
} from "../support/translation_service.ts";

const OPTIONS = { modelsDir: FIXTURE_MODELS_DIR, maxNewTokens: 6, statusTtlMs: 0 };

function settings(engines: Record<string, unknown> = {}): Settings {
  return SettingsSchema.parse({
    engines: {
      "local-llm": { model: FIXTURE_MODEL },
      "engine-one": { base_url: closedPortUrl() },
      "engine-two": { base_url: closedPortUrl() },
      ...engines,
    },
  });
}

const JOB: TranslationJob = {
  items: [{ text: "Bonjour tout le monde", source: "fr" }],
  target: "en",
  mode: "paragraph",
  alternatives: false,
};

async function engineObjects(pipeline: ReturnType<typeof createEnginePipeline>) {
  return new Map((await pipeline.reports()).map(({ engine }) => [engine.id, engine]));
}

Deno.test("engineSettingsSync rebuilds only the engines whose settings changed, and applies the order", async () => {
  const initial = settings();
  const pipeline = createEnginePipeline(initial, OPTIONS);
  try {
    const apply = engineSettingsSync(pipeline, initial, OPTIONS);
    const before = await engineObjects(pipeline);
    const next = settings({ "engine-two": { base_url: "http://127.0.0.1:1" } });
    next.engines.order = ["engine-two", "local-llm", "engine-one", "compatible-api"];
    next.engines["engine-one"] = initial.engines["engine-one"];
    apply(next);
    const after = await engineObjects(pipeline);
    assert.equal(after.get("local-llm"), before.get("local-llm"), "the built-in model stays");
    assert.equal(after.get("engine-one"), before.get("engine-one"));
    assert.notEqual(after.get("engine-two"), before.get("engine-two"));
    assert.deepEqual([...after.keys()], next.engines.order);
  } finally {
    await pipeline.close();
  }
});

Deno.test("a replaced engine finishes the job it is running before it is closed", async () => {
  const initial = settings();
  const pipeline = createEnginePipeline(initial, OPTIONS);
  try {
    const apply = engineSettingsSync(pipeline, initial, OPTIONS);
    const running = pipeline.translate(JOB, "local-llm");
    await new Promise((resolve) => setTimeout(resolve, 5));
    apply(settings({ "local-llm": { model: "tolk-test/not-installed" } }));
    const served = await running;
    assert.equal(served.outcome.model, FIXTURE_MODEL);
    assert.equal(served.outcome.items.length, 1);
    const [builtin] = (await pipeline.reports()).filter((r) => r.engine.id === "local-llm");
    assert.equal(builtin.status.ready, false, "the new default model is not installed");
  } finally {
    await pipeline.close();
  }
});
