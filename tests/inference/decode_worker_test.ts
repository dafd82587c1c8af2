/**
 * The decode worker's failures, against the real app and runtime: a worker that cannot load or
 * dies leaves the daemon up, answering 500 or 503 at once (never a hang), /health says `error`
 * and the log says why.
 */
import assert from "node:assert/strict";
import { ErrorBodySchema, HealthSchema } from "../../schemas/openai.ts";
import { NATIVE_SANITIZERS as NATIVE, startInferApp } from "../support/infer_app.ts";

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
