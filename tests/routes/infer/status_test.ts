import assert from "node:assert/strict";
import { StatusSchema } from "../../../schemas/openai.ts";
import { TINY_GGUF } from "../../support/infer_daemon.ts";
import { NATIVE_SANITIZERS, startInferApp } from "../../support/infer_app.ts";

const CASES = [
  { name: "redacts the model path by default", expose: false, path: "<redacted>" },
  { name: "shows the model path with exposeModelPath", expose: true, path: TINY_GGUF },
];

for (const { name, expose, path } of CASES) {
  Deno.test({
    name: `GET /v1/status ${name}`,
    ...NATIVE_SANITIZERS,
    async fn() {
      const app = await startInferApp({ app: { exposeModelPath: expose } });
      try {
        const body = StatusSchema.parse(await (await fetch(`${app.baseUrl}/v1/status`)).json());
        assert.equal(body.status, "running");
        assert.equal(body.endpoint, app.baseUrl);
        assert.deepEqual(body.runtime, {
          runtime: "llama.cpp",
          model_id: "tiny",
          backend: "cpu",
          ready: true,
        });
        assert.equal(body.active_model.path, path);
        assert.equal(body.active_model.status, "valid");
        assert.deepEqual(body.requests, { running: 0, queued: 0 });
      } finally {
        await app.stop();
      }
    },
  });
}
