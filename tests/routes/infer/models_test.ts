import assert from "node:assert/strict";
import { ModelListSchema } from "../../../schemas/openai.ts";
import { NATIVE_SANITIZERS, startInferApp } from "../../support/infer_app.ts";

const CASES = [
  {
    name: "lists the one loaded model as valid",
    modelPath: undefined,
    id: "tiny",
    status: "valid",
  },
  {
    name: "lists a missing model file as missing",
    modelPath: "/none/x.gguf",
    id: "x",
    status: "missing",
  },
] as const;

for (const { name, modelPath, id, status } of CASES) {
  Deno.test({
    name: `GET /v1/models ${name}`,
    ...NATIVE_SANITIZERS,
    async fn() {
      const app = await startInferApp({ runtime: modelPath ? { modelPath } : {} });
      try {
        const response = await fetch(`${app.baseUrl}/v1/models`);
        assert.equal(response.status, 200);
        const body = ModelListSchema.parse(await response.json());
        assert.deepEqual(body.data, [
          { id, object: "model", owned_by: "local", format: "gguf", status },
        ]);
      } finally {
        await app.stop();
      }
    },
  });
}
