import assert from "node:assert/strict";
import { HealthSchema } from "../../../schemas/openai.ts";
import { NATIVE_SANITIZERS, startInferApp } from "../../support/infer_app.ts";

Deno.test({
  name: "GET /health answers 503 loading while the model loads, then 200 ok with the version",
  ...NATIVE_SANITIZERS,
  async fn() {
    const app = await startInferApp({ waitReady: false });
    try {
      const loading = await fetch(`${app.baseUrl}/health`);
      assert.equal(loading.status, 503);
      assert.equal(HealthSchema.parse(await loading.json()).status, "loading");
      await app.runtime.loaded;
      const ready = await fetch(`${app.baseUrl}/health`);
      assert.equal(ready.status, 200);
      const body = HealthSchema.parse(await ready.json());
      assert.equal(body.status, "ok");
      assert.match(body.version, /^\d+\.\d+\.\d+ \(.+\)$/);
      assert.ok(ready.headers.get("x-request-id"));
    } finally {
      await app.stop();
    }
  },
});

Deno.test({
  name: "GET /health answers 503 error when the model failed to load",
  ...NATIVE_SANITIZERS,
  async fn() {
    const app = await startInferApp({ runtime: { modelPath: "/nonexistent/m.gguf" } });
    try {
      const response = await fetch(`${app.baseUrl}/health`);
      assert.equal(response.status, 503);
      assert.equal(HealthSchema.parse(await response.json()).status, "error");
    } finally {
      await app.stop();
    }
  },
});
