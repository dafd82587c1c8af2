/**
 * `response_format` schemas at the edges of what a grammar can mean, against a real `tolk infer`:
 * a schema no output can match is a 400 in the daemon's words (node-llama-cpp stretched the bound
 * and answered JSON that broke it), a `const` or `enum` of objects and arrays, which
 * llama-server's grammars take, comes back as one of its values, a bare `{type: "object"}` is
 * any object, as in JSON Schema and llama-server, and the openai client's own
 * `zodResponseFormat` of `z.int()` (the safe-integer bounds zod writes) is answered.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { zodResponseFormat } from "openai/helpers/zod";
import { z } from "zod";
import { startInferDaemon } from "../support/infer_daemon.ts";

/**
 * Schemas the daemon refuses, and what the 400 must say: no JSON value matches them, or the
 * grammar would answer JSON that breaks them, or they are no schema. Each was once answered.
 */
const REFUSED: Array<{ name: string; schema: Record<string, unknown>; says: RegExp }> = [
  {
    name: "minItems past a closed prefixItems",
    schema: { type: "array", prefixItems: [{ type: "integer" }], items: false, minItems: 3 },
    says:
      /"minItems" asks for 3 items, more than the 1 allowed \(maxItems, or prefixItems.*no output/,
  },
  {
    name: "minItems over maxItems",
    schema: { type: "array", items: { type: "integer" }, minItems: 3, maxItems: 1 },
    says: /"minItems" asks for 3 items, more than the 1 allowed \(maxItems\): no output can match/,
  },
  {
    name: "minLength over maxLength (nested)",
    schema: { type: "object", properties: { s: { type: "string", minLength: 5, maxLength: 2 } } },
    says: /"properties\.s\.minLength" asks for 5 characters.*no output can match/,
  },
  {
    name: "minProperties over maxProperties",
    schema: { type: "object", minProperties: 3, maxProperties: 1 },
    says: /"minProperties" asks for 3 properties, more than the 1 allowed.*no output can match/,
  },
  {
    name: "minProperties over the closed properties",
    schema: {
      type: "object",
      properties: { a: { type: "integer" } },
      additionalProperties: false,
      minProperties: 2,
    },
    says: /"minProperties" asks for 2 properties, more than the 1 allowed.*no output can match/,
  },
  {
    name: "a required name outside the closed properties",
    schema: {
      type: "object",
      properties: { a: { type: "integer" } },
      required: ["b"],
      additionalProperties: false,
    },
    says: /"required" names "b".*no output can match/,
  },
  {
    // node-llama-cpp writes no property beyond properties unless additionalProperties says so.
    name: "a required name outside properties, additionalProperties absent",
    schema: { type: "object", properties: { a: { type: "integer" } }, required: ["b"] },
    says: /"required" names "b", which is not in properties: the grammar writes only those/,
  },
  {
    name: "a required name outside properties, additionalProperties true",
    schema: { type: "object", required: ["b"], additionalProperties: true },
    says: /"required" names "b", which is not in properties: the grammar writes only those/,
  },
  {
    // With properties named, an absent additionalProperties closes the object (as llama.cpp's
    // grammars do); with none named it is any object (below).
    name: "minProperties over the properties, additionalProperties absent",
    schema: { type: "object", properties: { a: { type: "integer" } }, minProperties: 2 },
    says: /"minProperties" asks for 2 properties, more than the 1 allowed.*no output can match/,
  },
  { name: "an empty enum", schema: { enum: [] }, says: /"enum" is empty: no output can match/ },
  { name: "an empty oneOf", schema: { oneOf: [] }, says: /"oneOf" is empty: no output can match/ },
  {
    name: "an enum with no value of its type",
    schema: { type: "string", enum: [1, null] },
    says: /"enum" has no value of the type "string": no output can match/,
  },
  {
    name: "a const of another type",
    schema: { type: "object", properties: { n: { type: "integer", const: "7" } } },
    says: /"properties\.n\.const" is not of the type "integer": no output can match/,
  },
  {
    name: "a $ref naming no definition",
    schema: { type: "object", properties: { a: { $ref: "#/$defs/nope" } } },
    says: /"\$ref" "#\/\$defs\/nope" names no \$defs entry/,
  },
  {
    name: "a minItems written as a string",
    schema: { type: "array", minItems: "3" },
    says: /"minItems" must be a whole number of at least 0/,
  },
  {
    name: "a negative maxLength",
    schema: { type: "string", maxLength: -1 },
    says: /"maxLength" must be a whole number of at least 0/,
  },
  {
    name: "a fractional maxItems",
    schema: { type: "array", maxItems: 1.5 },
    says: /"maxItems" must be a whole number of at least 0/,
  },
  {
    name: "a maxLength over llama.cpp's 2,000 repetitions (left unenforced)",
    schema: { type: "string", maxLength: 2001 },
    says: /"maxLength" is 2001: a grammar repeats at most 2000 times/,
  },
  {
    name: "a minLength llama.cpp's grammar parser cannot repeat",
    schema: { type: "string", minLength: 1500 },
    says: /llama\.cpp cannot compile its grammar: a minItems, maxItems, minLength/,
  },
  {
    name: "a maxItems below the prefixItems the grammar writes",
    schema: { type: "array", prefixItems: [{ type: "null" }, { type: "null" }], maxItems: 1 },
    says: /"maxItems" is below the 2 prefixItems, which the grammar writes all of/,
  },
  {
    name: "a maxProperties below the properties the grammar writes",
    schema: {
      type: "object",
      properties: { a: { type: "null" }, b: { type: "null" } },
      maxProperties: 1,
    },
    says: /"maxProperties" is below the 2 properties, which the grammar writes all of/,
  },
  {
    name: "an enum string holding a lone surrogate (written as U+FFFD, not itself)",
    schema: { type: "object", properties: { s: { enum: ["ok", "half \ud83d"] } } },
    says: /"properties\.s\.enum" holds a lone surrogate/,
  },
  {
    name: "a property name holding a lone surrogate",
    schema: { type: "object", properties: { "k\udc00": { type: "null" } } },
    says: /"properties" holds a lone surrogate/,
  },
  {
    name: "a required that is no list",
    schema: { type: "object", properties: { a: { type: "null" } }, required: "a" },
    says: /"required" must be a list of property names/,
  },
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
    name: "an enum beside a type: only the values of the type",
    schema: { type: "string", enum: ["a", 1, null, "b"] },
    values: ["a", "b"],
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
  const ask = (schema: Record<string, unknown>, seed: number, maxTokens = 80) =>
    client.chat.completions.create({
      model: "tiny",
      messages: [{ role: "user", content: "A value, please." }],
      max_tokens: maxTokens,
      temperature: 1,
      seed,
      response_format: { type: "json_schema", json_schema: { name: "value", schema } },
    });
  try {
    for (const { name, schema, says } of REFUSED) {
      await t.step(`${name} is 400 invalid_request in the daemon's words`, async () => {
        const error = await ask(schema, 1).then(
          (completion) => assert.fail(`answered ${completion.choices[0].message.content}`),
          (error) => error,
        );
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.equal(error.code, "invalid_request");
        assert.equal(error.param, "response_format.json_schema.schema");
        assert.match(error.message, says);
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

    await t.step("a bare object schema is answered with objects holding members", async () => {
      // {type: "object"} was answered `{}` and nothing else, whatever the seed, and
      // {type: "object", minProperties: 1} was refused: JSON Schema's object has any members.
      const members: number[] = [];
      for (const schema of [{ type: "object" }, { type: "object", minProperties: 1 }]) {
        for (const seed of [1, 2, 3, 4]) {
          // Random weights write long keys: room enough for each seed's answer to end.
          const completion = await ask(schema, seed, 1000);
          const content = completion.choices[0].message.content!;
          assert.equal(completion.choices[0].finish_reason, "stop", content);
          const value = JSON.parse(content);
          assert.ok(isPlainObject(value), `seed ${seed}: ${content}`);
          if (schema.minProperties) assert.ok(Object.keys(value).length >= 1, content);
          members.push(Object.keys(value).length);
        }
      }
      assert.ok(members.slice(0, 4).some((n) => n > 0), `{type: "object"}: ${members}`);
    });

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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isDeepEqual(actual: unknown, expected: unknown): boolean {
  try {
    assert.deepStrictEqual(actual, expected);
    return true;
  } catch {
    return false;
  }
}
