/**
 * Hostile `response_format` schemas against a real `tolk infer` (issue 15, points 1 and 2):
 * schemas nested thousands deep are a 400 naming `response_format`, and a 60,000-value enum is
 * refused before compiling, `/health` answering meanwhile (its wait is measured by `deno task
 * fuzz:infer`, BENCHMARKS.md).
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

/** Probes /health back to back while `work` runs; every answer must be 200. */
async function healthyDuring(baseUrl: string, work: Promise<unknown>): Promise<void> {
  let done = false;
  work.finally(() => done = true);
  while (!done) {
    const response = await fetch(`${baseUrl}/health`);
    await response.body?.cancel();
    assert.equal(response.status, 200);
  }
  await work;
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
      // Refused by the bound before compiling (the message names the limit); how long /health
      // waits meanwhile is measured by `deno task fuzz:infer` (BENCHMARKS.md), not timed here.
      "an enum of 60,000 strings is 400 while /health keeps answering",
      async () => {
        const schema = { enum: Array.from({ length: 60_000 }, (_, i) => `value-${i}`) };
        const request = chatWithSchema(daemon.baseUrl, schema);
        await healthyDuring(daemon.baseUrl, request);
        await expectSchemaRefused(await request);
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
