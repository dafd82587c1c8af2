import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { inspectModel } from "../../../models/model_store.ts";
import { generateRows, sequenceConfidence } from "../../../engines/builtin/seq2seq_generation.ts";
import { loadTranslationModel } from "../../../engines/builtin/translation_model.ts";

const MODELS_DIR = fileURLToPath(new URL("../../fixtures/models/", import.meta.url));

async function withNllb(
  body: (model: Awaited<ReturnType<typeof loadTranslationModel>>) => Promise<void>,
) {
  const installed = await inspectModel(MODELS_DIR, "tolk-test/tiny-nllb");
  const model = await loadTranslationModel(installed!, { maxInputTokens: 200 });
  try {
    await body(model);
  } finally {
    await model.dispose();
  }
}

const TARGET = { code: "fra_Latn", script: null };

Deno.test("generateRows cuts each row at its own first end token, with nothing after it", async () => {
  await withNllb(async (model) => {
    const encoded = model.encode(["Hello world", "Second item"], "eng_Latn", TARGET);
    const request = { ...encoded, maxNewTokens: [10, 10] };
    const [free, other] = await generateRows(model.model, request);
    assert.equal(free.ids.length, 10, "the random model never ends on its own");
    // Declare the row's third generated token an end token: generate() keeps the batch running,
    // so without the cut the row would carry on after it.
    const end = free.ids[2];
    const [cut, otherCut] = await generateRows(model.model, { ...request, eosTokenIds: [end] });
    assert.deepEqual(cut.ids, free.ids.slice(0, free.ids.indexOf(end, 1)));
    const otherEnd = other.ids.indexOf(end, 1);
    assert.deepEqual(otherCut.ids, otherEnd === -1 ? other.ids : other.ids.slice(0, otherEnd));
    assert.equal(cut.scored, free.ids.indexOf(end, 1), "scores the end token, not the forced one");
    assert.ok(!model.decode(cut.ids).includes(model.decode(free.ids.slice(3))));
  });
});

Deno.test("generateRows forces the target language token first and caps each row", async () => {
  await withNllb(async (model) => {
    const encoded = model.encode(["Hello world", "Second item"], "eng_Latn", TARGET);
    const rows = await generateRows(model.model, { ...encoded, maxNewTokens: [3, 6] });
    assert.deepEqual(rows.map((row) => row.ids.length), [3, 6]);
    for (const row of rows) assert.equal(row.ids[0], encoded.forcedBosTokenId);
    assert.deepEqual(rows.map((row) => row.scored), [2, 5]);
  });
});

Deno.test("generateRows stops mid-generation when its signal is aborted", async () => {
  await withNllb(async (model) => {
    const encoded = model.encode(["Hello world"], "eng_Latn", TARGET);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error("job cancelled")), 20);
    try {
      // 2000 steps take seconds; the abort lands long before.
      await assert.rejects(
        generateRows(model.model, { ...encoded, maxNewTokens: [2000], signal: controller.signal }),
        /job cancelled/,
      );
    } finally {
      clearTimeout(timer);
    }
  });
});

Deno.test("sequenceConfidence is the geometric mean of token probabilities", () => {
  const half = Math.log(0.5);
  const quarter = Math.log(0.25);
  assert.equal(sequenceConfidence([{ logProb: half + quarter, scored: 2 }]), Math.sqrt(0.125));
  assert.equal(
    sequenceConfidence([{ logProb: half, scored: 1 }, { logProb: half, scored: 1 }]),
    0.5,
  );
  assert.equal(sequenceConfidence([{ logProb: 0, scored: 0 }]), null);
});
