import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { createBuiltinEngine } from "../../../engines/builtin/builtin_engine.ts";
import type { TranslationJob } from "../../../engines/engine.ts";

const MODELS_DIR = fileURLToPath(new URL("../../fixtures/models/", import.meta.url));
const NLLB = "tolk-test/tiny-nllb";

function engine(maxNewTokens = 8) {
  return createBuiltinEngine({
    modelsDir: MODELS_DIR,
    defaultModel: NLLB,
    maxNewTokens,
    batchSize: 1,
  });
}

function job(texts: string[], extra: Partial<TranslationJob> = {}): TranslationJob {
  const items = texts.map((text) => ({ text, source: "en" }));
  return { items, target: "fr", mode: "paragraph", alternatives: false, ...extra };
}

Deno.test("local-llm stops a generation under way in its worker once the job is aborted, and keeps serving", async () => {
  const local = engine(512);
  try {
    const [expected] = (await local.translate(job(["Hello world"]))).items;
    // 60 pieces of about 50 new tokens each, one at a time: seconds of work for the tiny model.
    const long = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} is long enough.`);
    const controller = new AbortController();
    const running = local.translate(job(long, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error("client gone")), 100);
    await assert.rejects(running, /client gone/);
    const [again] = (await local.translate(job(["Hello world"]))).items;
    assert.deepEqual(again, expected);
  } finally {
    await local.close?.();
  }
});

Deno.test("local-llm engines share one model thread: closing one leaves the model to the other", async () => {
  const [first, second] = [engine(), engine()];
  try {
    const one = await first.translate(job(["Hello world"]));
    const two = await second.translate(job(["Hello world"]));
    assert.deepEqual(two, one);
    await first.close?.();
    assert.deepEqual(await second.translate(job(["Hello world"])), one);
  } finally {
    await first.close?.();
    await second.close?.();
  }
});
