import assert from "node:assert/strict";
import { GenerationError } from "../../inference/generation.ts";
import { toJsonOutputFormat } from "../../inference/json_schema_grammar.ts";

const ACCEPTED: Array<{ name: string; schema: unknown; expect: unknown }> = [
  { name: "no schema is any JSON", schema: undefined, expect: { kind: "json" } },
  { name: "true is any JSON", schema: true, expect: { kind: "json" } },
  { name: "an empty schema is any JSON", schema: { title: "x" }, expect: { kind: "json" } },
  {
    name: "annotations are dropped, constraints kept",
    schema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title: "T",
      type: "object",
      properties: { a: { type: "string", maxLength: 3, default: "x", format: "email" } },
      required: ["a"],
      additionalProperties: false,
    },
    expect: {
      kind: "json_schema",
      schema: {
        type: "object",
        properties: { a: { type: "string", maxLength: 3 } },
        required: ["a"],
        additionalProperties: false,
      },
    },
  },
  {
    name: "anyOf becomes oneOf",
    schema: { anyOf: [{ type: "string" }, { type: "null" }] },
    expect: { kind: "json_schema", schema: { oneOf: [{ type: "string" }, { type: "null" }] } },
  },
  {
    name: "definitions refs become $defs refs",
    schema: {
      definitions: { A: { type: "integer" } },
      type: "object",
      properties: { a: { $ref: "#/definitions/A" } },
    },
    expect: {
      kind: "json_schema",
      schema: {
        $defs: { A: { type: "integer" } },
        type: "object",
        properties: { a: { $ref: "#/$defs/A" } },
      },
    },
  },
  {
    name: "a type list with object becomes oneOf",
    schema: { type: ["object", "null"], properties: { a: { type: "boolean" } } },
    expect: {
      kind: "json_schema",
      schema: {
        oneOf: [{ type: "object", properties: { a: { type: "boolean" } } }, { type: "null" }],
      },
    },
  },
  {
    name: "properties without a type imply an object",
    schema: { properties: { a: { type: "number" } } },
    expect: {
      kind: "json_schema",
      schema: { type: "object", properties: { a: { type: "number" } } },
    },
  },
];

for (const { name, schema, expect } of ACCEPTED) {
  Deno.test(`toJsonOutputFormat: ${name}`, () => {
    assert.deepEqual(toJsonOutputFormat(schema), expect);
  });
}

const REFUSED: Array<{ name: string; schema: unknown }> = [
  { name: "a pattern", schema: { type: "string", pattern: "^a+$" } },
  { name: "a numeric range", schema: { type: "integer", minimum: 1 } },
  { name: "a nested not", schema: { type: "object", properties: { a: { not: {} } } } },
  { name: "an external $ref", schema: { $ref: "https://example.com/s.json" } },
  { name: "a non-object schema", schema: "string" },
];

for (const { name, schema } of REFUSED) {
  Deno.test(`toJsonOutputFormat refuses ${name} as a grammar failure`, () => {
    assert.throws(() => toJsonOutputFormat(schema), (error: unknown) => {
      assert.ok(error instanceof GenerationError);
      assert.equal(error.failure.kind, "grammar");
      return true;
    });
  });
}
