import assert from "node:assert/strict";
import { PullError, pullModel, type PullProgress } from "../../models/hub_download.ts";
import { inspectModel } from "../../models/model_store.ts";
import { type FakeHub, FIXTURE_MODELS, startFakeHub } from "./fake_hub.ts";

const NLLB = "tolk-test/tiny-nllb";
const MARIAN = "tolk-test/tiny-marian";
const DECODER = "onnx/decoder_model_merged.onnx";

async function withHub(body: (hub: FakeHub, modelsDir: string) => Promise<void>) {
  const hub = startFakeHub();
  const modelsDir = await Deno.makeTempDir({ prefix: "tolk-models-" });
  try {
    await body(hub, modelsDir);
  } finally {
    await hub.close();
    await Deno.remove(modelsDir, { recursive: true });
  }
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

async function assertSameFiles(modelsDir: string, id: string, files: string[]) {
  for (const file of files) {
    assert.deepEqual(
      await Deno.readFile(`${modelsDir}/${id}/${file}`),
      await Deno.readFile(`${FIXTURE_MODELS}${id}/${file}`),
      file,
    );
  }
}

Deno.test("pullModel installs a model in the hub layout and reports progress", async () => {
  await withHub(async (hub, modelsDir) => {
    const progress: PullProgress[] = [];
    const result = await pullModel(NLLB, {
      modelsDir,
      endpoint: hub.endpoint,
      onProgress: (step) => progress.push(step),
    });
    assert.equal(result.dtype, "fp32");
    assert.deepEqual(result.files.toSorted(), [
      "config.json",
      "generation_config.json",
      "onnx/decoder_model_merged.onnx",
      "onnx/encoder_model.onnx",
      "special_tokens_map.json",
      "tokenizer.json",
      "tokenizer_config.json",
    ]);
    await assertSameFiles(modelsDir, NLLB, result.files);
    const installed = await inspectModel(modelsDir, NLLB);
    assert.equal(installed?.valid, true);
    assert.equal(result.downloadedBytes, installed?.sizeBytes);
    assert.equal(progress.at(-1)?.received, progress.at(-1)?.total);
    assert.equal(progress.at(-1)?.total, installed?.sizeBytes);
    assert.equal(await exists(`${modelsDir}/.downloads/${NLLB}`), false);
  });
});

Deno.test("pullModel picks q8 by default and refuses a dtype the repository lacks", async () => {
  await withHub(async (hub, modelsDir) => {
    const result = await pullModel(MARIAN, { modelsDir, endpoint: hub.endpoint });
    assert.equal(result.dtype, "q8");
    assert.ok(result.files.includes("onnx/encoder_model_quantized.onnx"));
    await assert.rejects(
      pullModel(MARIAN, { modelsDir, endpoint: hub.endpoint, dtype: "fp32" }),
      (error) => error instanceof PullError && /no fp32 variant \(it has: q8\)/.test(error.message),
    );
  });
});

Deno.test("pullModel resumes an interrupted download with a Range request", async () => {
  await withHub(async (hub, modelsDir) => {
    hub.controls.cut = { path: DECODER, bytes: 50_000, count: 1 };
    await assert.rejects(
      pullModel(NLLB, { modelsDir, endpoint: hub.endpoint, retries: 0 }),
      (error) => error instanceof PullError && /resume/.test(error.message),
    );
    assert.equal(await exists(`${modelsDir}/${NLLB}`), false, "nothing installed yet");
    const part = await Deno.stat(`${modelsDir}/.downloads/${NLLB}/${DECODER}.part`);
    assert.equal(part.size, 50_000);

    hub.controls.log.length = 0;
    const result = await pullModel(NLLB, { modelsDir, endpoint: hub.endpoint });
    assert.ok(hub.controls.log.includes(`GET /${NLLB}/resolve/main/${DECODER} bytes=50000-`));
    assert.ok(!hub.controls.log.some((line) => line.includes("/config.json")), "done files kept");
    await assertSameFiles(modelsDir, NLLB, result.files);
    assert.equal((await inspectModel(modelsDir, NLLB))?.valid, true);
  });
});

Deno.test("pullModel retries a broken connection on its own, from where it stopped", async () => {
  await withHub(async (hub, modelsDir) => {
    hub.controls.cut = { path: DECODER, bytes: 70_000, count: 2 };
    const result = await pullModel(NLLB, { modelsDir, endpoint: hub.endpoint });
    assert.ok(hub.controls.log.includes(`GET /${NLLB}/resolve/main/${DECODER} bytes=70000-`));
    await assertSameFiles(modelsDir, NLLB, result.files);
  });
});

Deno.test("pullModel waits out a busy or failing server (429, 503, 500) and goes on", async () => {
  await withHub(async (hub, modelsDir) => {
    for (const status of [429, 503, 500]) {
      hub.controls.refuse = { path: DECODER, status, count: 2, retryAfter: "0" };
      hub.controls.log.length = 0;
      await Deno.remove(`${modelsDir}/${NLLB}`, { recursive: true }).catch(() => {});
      const result = await pullModel(NLLB, { modelsDir, endpoint: hub.endpoint });
      const asked = hub.controls.log.filter((line) => line.includes(DECODER)).length;
      assert.equal(asked, 3, `HTTP ${status}: two refusals, then the file`);
      await assertSameFiles(modelsDir, NLLB, result.files);
    }
  });
});

Deno.test("pullModel gives up on a server that stays busy, naming the status, and a 404 at once", async () => {
  await withHub(async (hub, modelsDir) => {
    hub.controls.refuse = { path: DECODER, status: 503, count: 10, retryAfter: "0" };
    await assert.rejects(
      pullModel(NLLB, { modelsDir, endpoint: hub.endpoint, retries: 2 }),
      (error) =>
        error instanceof PullError && error.message.includes("HTTP 503") &&
        error.message.includes("run the same command again"),
    );
    assert.equal(hub.controls.log.filter((line) => line.includes(DECODER)).length, 3);
    hub.controls.refuse = { path: DECODER, status: 404, count: 10 };
    hub.controls.log.length = 0;
    await assert.rejects(
      pullModel(NLLB, { modelsDir, endpoint: hub.endpoint }),
      (error) => error instanceof PullError && error.message.includes("HTTP 404"),
    );
    assert.equal(hub.controls.log.filter((line) => line.includes(DECODER)).length, 1);
  });
});

for (const corrupt of ["tokenizer.json", DECODER]) {
  Deno.test(`pullModel rejects ${corrupt} with a wrong checksum and installs nothing`, async () => {
    await withHub(async (hub, modelsDir) => {
      hub.controls.corrupt = corrupt;
      await assert.rejects(
        pullModel(NLLB, { modelsDir, endpoint: hub.endpoint }),
        (error) => error instanceof PullError && error.message.includes(`mismatch for ${corrupt}`),
      );
      assert.equal(await exists(`${modelsDir}/${NLLB}`), false);
      assert.equal(await exists(`${modelsDir}/.downloads/${NLLB}/${corrupt}.part`), false);
    });
  });
}

Deno.test("pullModel names an unknown model and the hub it asked", async () => {
  await withHub(async (hub, modelsDir) => {
    await assert.rejects(
      pullModel("nobody/missing", { modelsDir, endpoint: hub.endpoint }),
      (error) =>
        error instanceof PullError && error.message.includes("nobody/missing") &&
        error.message.includes(hub.endpoint),
    );
    await assert.rejects(pullModel("../escape", { modelsDir, endpoint: hub.endpoint }), PullError);
  });
});

Deno.test("pullModel downloads nothing again for a model already installed", async () => {
  await withHub(async (hub, modelsDir) => {
    await pullModel(NLLB, { modelsDir, endpoint: hub.endpoint });
    hub.controls.log.length = 0;
    const again = await pullModel(NLLB, { modelsDir, endpoint: hub.endpoint });
    assert.equal(again.downloadedBytes, 0);
    assert.deepEqual(hub.controls.log, [`GET /api/models/${NLLB}/tree/main`]);
  });
});

Deno.test("pullModel writes nothing outside the model folder for a listed path with ..", async () => {
  await withHub(async (hub, dir) => {
    const modelsDir = `${dir}/models`;
    const escape = "onnx/encoder_model.onnx_data/../../../../../escaped.txt";
    hub.controls.extraFiles = { [escape]: new TextEncoder().encode("from a hostile mirror\n") };
    const result = await pullModel(NLLB, { modelsDir, endpoint: hub.endpoint }).catch((e) => e);
    assert.equal(await exists(`${dir}/escaped.txt`), false, "written beside the models dir");
    assert.equal(await exists(`${modelsDir}/escaped.txt`), false, "written in the staging area");
    if (!(result instanceof PullError)) assert.ok(!result.files.includes(escape));
  });
});

Deno.test("pullModel checks a file left in staging by an earlier pull before installing it", async () => {
  await withHub(async (hub, modelsDir) => {
    hub.controls.cut = { path: DECODER, bytes: 50_000, count: 1 };
    await assert.rejects(pullModel(NLLB, { modelsDir, endpoint: hub.endpoint, retries: 0 }));
    // Staged by that pull, then changed (the hub's file since updated, or the disk): same size.
    const staged = `${modelsDir}/.downloads/${NLLB}/tokenizer_config.json`;
    const size = (await Deno.stat(staged)).size;
    await Deno.writeTextFile(staged, "x".repeat(size));
    const result = await pullModel(NLLB, { modelsDir, endpoint: hub.endpoint });
    await assertSameFiles(modelsDir, NLLB, result.files);
  });
});

Deno.test("pullModel run three times at once installs the model once and all three succeed", async () => {
  await withHub(async (hub, modelsDir) => {
    const pulls = [1, 2, 3].map(() => pullModel(NLLB, { modelsDir, endpoint: hub.endpoint }));
    const results = await Promise.all(pulls);
    await assertSameFiles(modelsDir, NLLB, results[0].files);
    const fetched = results.map((result) => result.downloadedBytes).sort((a, b) => a - b);
    assert.deepEqual(fetched.slice(0, 2), [0, 0], "the later pulls find the model installed");
  });
});
