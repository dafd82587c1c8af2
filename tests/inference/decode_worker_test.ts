/**
 * The decode worker's failures, against the real app and runtime: a worker that cannot load or
 * dies leaves the daemon up, answering 500 or 503 at once (never a hang), /health says `error`
 * and the log says why.
 */
import assert from "node:assert/strict";
import { ErrorBodySchema, HealthSchema } from "../../schemas/openai.ts";
import { LlamaRuntime } from "../../inference/llama_runtime.ts";
import type { GenerationParams } from "../../inference/generation.ts";
import { NATIVE_SANITIZERS as NATIVE, startInferApp } from "../support/infer_app.ts";
import { TINY_GGUF } from "../support/infer_daemon.ts";

const CRASHING_WORKER = new URL("../support/crashing_decode_worker.ts", import.meta.url);
/** A module that does not exist, as a binary built without the worker would have. */
const MISSING_WORKER = new URL("../support/no_such_decode_worker.ts", import.meta.url);

function chat(baseUrl: string) {
  return fetch(`${baseUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], max_tokens: 200 }),
  });
}

async function health(baseUrl: string) {
  const response = await fetch(`${baseUrl}/health`);
  return { status: response.status, body: HealthSchema.parse(await response.json()) };
}

Deno.test({
  name:
    "a decode worker that dies with a generation in it: 500 internal_error, /health error, logged",
  ...NATIVE,
  async fn() {
    const app = await startInferApp({ runtime: { decodeWorkerUrl: CRASHING_WORKER } });
    try {
      assert.equal((await health(app.baseUrl)).status, 200);
      const failed = await chat(app.baseUrl);
      assert.equal(failed.status, 500);
      assert.equal(ErrorBodySchema.parse(await failed.json()).error.code, "internal_error");
      assert.deepEqual(await health(app.baseUrl), {
        status: 503,
        body: { status: "error", version: (await health(app.baseUrl)).body.version },
      });
      assert.ok(
        app.logs.some((line) => line.includes("the decode worker stopped")),
        app.logs.join("\n"),
      );
      const refused = await chat(app.baseUrl);
      assert.equal(refused.status, 503);
      assert.equal(ErrorBodySchema.parse(await refused.json()).error.code, "model_not_ready");
    } finally {
      await app.stop();
    }
  },
});

Deno.test({
  name: "a decode worker that cannot load: the model is not ready, /health error, logged",
  ...NATIVE,
  async fn() {
    const app = await startInferApp({ runtime: { decodeWorkerUrl: MISSING_WORKER } });
    try {
      assert.equal((await health(app.baseUrl)).body.status, "error");
      const refused = await chat(app.baseUrl);
      assert.equal(refused.status, 503);
      assert.equal(ErrorBodySchema.parse(await refused.json()).error.code, "model_not_ready");
      assert.ok(
        app.logs.some((line) => line.includes("the decode worker stopped")),
        app.logs.join("\n"),
      );
    } finally {
      await app.stop();
    }
  },
});

function greedy(maxTokens: number): GenerationParams {
  const turns = [{ role: "user" as const, text: "hi" }];
  return { turns, temperature: 0, topP: 1, stop: [], format: { kind: "text" }, maxTokens };
}

Deno.test({
  name: "a generation queued in the decode worker ends with abort at once when its caller aborts",
  ...NATIVE,
  async fn() {
    const runtime = LlamaRuntime.start({ modelPath: TINY_GGUF, threads: 1, slots: 1, log() {} });
    try {
      await runtime.loaded;
      const running = runtime.generate(await runtime.prepare(greedy(1000)));
      const abort = new AbortController();
      const queued = runtime.generate(await runtime.prepare(greedy(8)), { signal: abort.signal });
      abort.abort();
      const first = await Promise.race([
        queued.then(() => "queued"),
        running.then(() => "running"),
      ]);
      assert.equal(first, "queued", "the cancelled one ends before the running one");
      const ended = await queued;
      assert.deepEqual([ended.stopReason, ended.completionTokens, ended.text], ["abort", 0, ""]);
      assert.equal((await running).completionTokens, 1000);
    } finally {
      await runtime.dispose();
    }
  },
});
