/**
 * `response_format` schemas at the edges of what a grammar can mean, against a real `tolk infer`:
 * a schema no output can match is a 400 in the daemon's words (node-llama-cpp stretched the bound
 * and answered JSON that broke it), a `const` or `enum` of objects and arrays, which
 * llama-server's grammars take, comes back as one of its values, and the openai client's own
 * `zodResponseFormat` of `z.int()` (the safe-integer bounds zod writes) is answered.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { zodResponseFormat } from "openai/helpers/zod";
import { z } from "zod";
import { startInferDaemon } from "../support/infer_daemon.ts";

/** Schemas no JSON value matches, and the part of the schema the 400 must name. */
const UNSATISFIABLE: Array<{ name: string; schema: Record<string, unknown>; names: RegExp }> = [
  {
    name: "minItems past a closed prefixItems",
    schema: { type: "array", prefixItems: [{ type: "integer" }], items: false, minItems: 3 },
    names: /"minItems" asks for 3 items, more than the 1 allowed \(maxItems, or prefixItems/,
  },
  {
    name: "minItems over maxItems",
    schema: { type: "array", items: { type: "integer" }, minItems: 3, maxItems: 1 },
    names: /"minItems" asks for 3 items, more than the 1 allowed \(maxItems\)/,
  },
  {
    name: "minLength over maxLength (nested)",
    schema: { type: "object", properties: { s: { type: "string", minLength: 5, maxLength: 2 } } },
    names: /"properties\.s\.minLength" asks for 5 characters/,
  },
  {
    name: "minProperties over maxProperties",
    schema: { type: "object", minProperties: 3, maxProperties: 1 },
    names: /"minProperties" asks for 3 properties, more than the 1 allowed/,
  },
  {
    name: "minProperties over the closed properties",
    schema: {
      type: "object",
      properties: { a: { type: "integer" } },
      additionalProperties: false,
      minProperties: 2,
    },
    names: /"minProperties" asks for 2 properties, more than the 1 allowed/,
  },
  {
    name: "a required name outside the closed properties",
    schema: {
      type: "object",
      properties: { a: { type: "integer" } },
      required: ["b"],
      additionalProperties: false,
    },
    names: /"required" names "b"/,
  },
  { name: "an empty enum", schema: { enum: [] }, names: /"enum" is empty/ },
];

/** Literal values and the schema that holds them (const: one value; enum: any of them). */
const LITERALS: Array<{ name: string; schema: Record<string, unknown>; values: unknown[] }> = [
  { name: "a const object", schema: { const: { a: 1, b: "x" } }, values: [{ a: 1, b: "x" }] },
  {
    name: "a const array",
    schema: { const: [1, [true, null], {}] },
    values: [[1, [true, null], {}]],
  },
  {
    name: "an enum of an object, an array and a string",
    schema: { enum: [{ k: [] }, ["v"], "s"] },
    values: [{ k: [] }, ["v"], "s"],
  },
  {
    name: "a const object under a property",
    schema: {
      type: "object",
      properties: { p: { const: { q: { r: 2 } } } },
      required: ["p"],
      additionalProperties: false,
    },
    values: [{ p: { q: { r: 2 } } }],
  },
];

Deno.test("tolk infer: unsatisfiable schemas, structured literals, zod's integers", async (t) => {
  const daemon = await startInferDaemon();
  const client = new OpenAI({ baseURL: `${daemon.baseUrl}/v1`, apiKey: "unused", maxRetries: 0 });
  const ask = (schema: Record<string, unknown>, seed: number) =>
    client.chat.completions.create({
      model: "tiny",
      messages: [{ role: "user", content: "A value, please." }],
      max_tokens: 80,
      temperature: 1,
      seed,
      response_format: { type: "json_schema", json_schema: { name: "value", schema } },
    });
  try {
    for (const { name, schema, names } of UNSATISFIABLE) {
      await t.step(`${name} is 400 invalid_request: no output can match`, async () => {
        const error = await ask(schema, 1).then(
          (completion) => assert.fail(`answered ${completion.choices[0].message.content}`),
          (error) => error,
        );
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.equal(error.code, "invalid_request");
        assert.equal(error.param, "response_format.json_schema.schema");
        assert.match(error.message, names);
        assert.match(error.message, /no output can match/);
      });
    }

    for (const { name, schema, values } of LITERALS) {
      await t.step(`${name} comes back as one of its values`, async () => {
        for (const seed of [1, 2, 3]) {
          const completion = await ask(schema, seed);
          const content = completion.choices[0].message.content!;
          assert.equal(completion.choices[0].finish_reason, "stop", content);
          const value = JSON.parse(content);
          assert.ok(
            values.some((expected) => isDeepEqual(value, expected)),
            `seed ${seed}: ${content}`,
          );
        }
      });
    }

    await t.step(
      "openai's zodResponseFormat of z.int() is answered with safe integers",
      async () => {
        // zod 4 writes z.int() as {type: "integer", minimum: -(2^53-1), maximum: 2^53-1}: once
        // refused ("minimum cannot be enforced by a grammar"), though the grammar's integers
        // stay inside those bounds.
        const Answer = z.object({ count: z.int(), years: z.array(z.number().int()).length(4) });
        for (const seed of [1, 2, 3]) {
          const completion = await client.chat.completions.parse({
            model: "tiny",
            messages: [{ role: "user", content: "Numbers, please." }],
            max_tokens: 200,
            temperature: 1,
            seed,
            response_format: zodResponseFormat(Answer, "answer"),
          });
          const { finish_reason, message } = completion.choices[0];
          assert.equal(finish_reason, "stop", message.content!);
          const { count, years } = message.parsed!;
          assert.ok([count, ...years].every(Number.isSafeInteger), message.content!);
        }
      },
    );
  } finally {
    await daemon.stop();
  }
});

function isDeepEqual(actual: unknown, expected: unknown): boolean {
  try {
    assert.deepStrictEqual(actual, expected);
    return true;
  } catch {
    return false;
  }
}
