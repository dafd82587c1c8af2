/**
 * Hostile `response_format` schemas against a real `tolk infer` (issue 15, points 1 and 2):
 * schemas nested thousands deep are a 400 naming `response_format`, and a 60,000-value enum is
 * refused without stalling the daemon (`/health` keeps answering within 100 ms).
 */
import assert from "node:assert/strict";
import { ErrorBodySchema } from "../../schemas/openai.ts";
import { startInferDaemon } from "../support/infer_daemon.ts";
import { nestedJsonSchema } from "../support/nested_json_schema.ts";

const HI = [{ role: "user", content: "hi" }];

function chatWithSchema(baseUrl: string, schema: unknown) {
  return fetch(`${baseUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      messages: HI,
      max_tokens: 4,
      response_format: { type: "json_schema", json_schema: { name: "x", schema } },
    }),
  });
}

async function expectSchemaRefused(response: Response) {
  const body = ErrorBodySchema.strict().parse(await response.json());
  assert.equal(response.status, 400, JSON.stringify(body));
  assert.equal(body.error.code, "invalid_request");
  assert.equal(body.error.param, "response_format.json_schema.schema");
  assert.match(body.error.message, /^response_format schema: .*the limit/);
  assert.ok(response.headers.get("x-request-id"));
}

/** Longest /health answer while `work` runs, probing back to back. */
async function slowestHealthDuring(baseUrl: string, work: Promise<unknown>): Promise<number> {
  let done = false;
  work.finally(() => done = true);
  let slowest = 0;
  while (!done) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}/health`);
    await response.body?.cancel();
    assert.equal(response.status, 200);
    slowest = Math.max(slowest, performance.now() - started);
  }
  await work;
  return slowest;
}

Deno.test("tolk infer refuses hostile response_format schemas and stays responsive", async (t) => {
  const daemon = await startInferDaemon();
  try {
    for (const via of ["allOf", "anyOf", "items", "properties"]) {
      for (const levels of [5_000, 20_000]) {
        await t.step(`a schema ${levels} deep through ${via} is 400 invalid_request`, async () => {
          await expectSchemaRefused(
            await chatWithSchema(daemon.baseUrl, nestedJsonSchema(levels, via)),
          );
        });
      }
    }

    await t.step(
      "an enum of 60,000 strings is 400 while /health answers within 100 ms",
      async () => {
        const schema = { enum: Array.from({ length: 60_000 }, (_, i) => `value-${i}`) };
        const request = chatWithSchema(daemon.baseUrl, schema);
        const slowest = await slowestHealthDuring(daemon.baseUrl, request);
        await expectSchemaRefused(await request);
        assert.ok(slowest < 100, `/health took ${slowest.toFixed(0)} ms`);
      },
    );

    await t.step("a schema at the limits still compiles and answers", async () => {
      const schema = { enum: Array.from({ length: 1000 }, (_, i) => `value-${i}`) };
      const response = await chatWithSchema(daemon.baseUrl, schema);
      assert.equal(response.status, 200, await response.clone().text());
      await response.body?.cancel();
    });
  } finally {
    await daemon.stop();
  }
});
