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
    // node-llama-cpp reads an absent additionalProperties as false: `{}` alone was admitted.
    name: "an object naming no properties is any object; naming some, it stays closed",
    schema: {
      type: "object",
      properties: { a: { type: "object" }, b: { type: ["object", "null"], minProperties: 1 } },
    },
    expect: {
      kind: "json_schema",
      schema: {
        type: "object",
        properties: {
          a: { type: "object", additionalProperties: true },
          b: {
            oneOf: [
              { type: "object", minProperties: 1, additionalProperties: true },
              { type: "null" },
            ],
          },
        },
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
  {
    name: "z.int()'s safe-integer bounds are dropped: every integer of the grammar meets them",
    schema: { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 },
    expect: { kind: "json_schema", schema: { type: "integer" } },
  },
  {
    name: "an enum beside a type keeps the values of the type",
    schema: { type: ["integer", "null"], enum: [1, 1.5, null, "x"] },
    expect: { kind: "json_schema", schema: { type: ["integer", "null"], enum: [1, null] } },
  },
  {
    name: "a const object is the schema of that one object",
    schema: { const: { a: [1] }, description: "d" },
    expect: {
      kind: "json_schema",
      schema: {
        type: "object",
        properties: { a: { type: "array", prefixItems: [{ const: 1 }], maxItems: 1 } },
        required: ["a"],
        additionalProperties: false,
        description: "d",
      },
    },
  },
  {
    name: "an enum holding an object is a oneOf of its values",
    schema: { enum: [{}, "x"] },
    expect: {
      kind: "json_schema",
      schema: {
        oneOf: [
          { type: "object", properties: {}, required: [], additionalProperties: false },
          { const: "x" },
        ],
      },
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
  { name: "a type JSON Schema has not", schema: { type: "banana" } },
  {
    name: "a nested unknown type",
    schema: { type: "object", properties: { a: { type: "text" } } },
  },
  { name: "an empty type list", schema: { type: [] } },
  { name: "an empty enum", schema: { enum: [] } },
  { name: "a $ref naming no definition", schema: { $ref: "#/$defs/missing" } },
  { name: "a minItems as a string", schema: { type: "array", minItems: "2" } },
  { name: "a maxLength over 2,000", schema: { type: "string", maxLength: 2001 } },
  { name: "an enum with no value of its type", schema: { type: "integer", enum: [1.5, "1"] } },
  { name: "an integer minimum the grammar can pass", schema: { type: "integer", minimum: -5 } },
  { name: "an integer maximum the grammar can pass", schema: { type: "integer", maximum: 1e12 } },
  { name: "a number's safe-integer bound", schema: { type: "number", maximum: 2 ** 53 - 1 } },
  { name: "minItems over maxItems", schema: { type: "array", minItems: 2, maxItems: 1 } },
  {
    name: "minItems past a closed prefixItems",
    schema: { prefixItems: [{ type: "null" }], items: false, minItems: 2 },
  },
  { name: "minLength over maxLength", schema: { type: "string", minLength: 2, maxLength: 1 } },
  { name: "minProperties over maxProperties", schema: { minProperties: 2, maxProperties: 1 } },
  {
    name: "a required name outside closed properties",
    schema: { type: "object", properties: {}, required: ["a"], additionalProperties: false },
  },
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

/** A schema nested `levels` deep through `via` (each level adds the JSON depth noted). */
function nested(levels: number, via: "allOf" | "anyOf" | "items" | "properties"): unknown {
  let schema: unknown = { type: "string" };
  for (let i = 0; i < levels; i++) {
    schema = via === "items"
      ? { type: "array", items: schema } // +1 JSON level
      : via === "properties"
      ? { type: "object", properties: { a: schema } } // +2
      : { [via]: [schema] }; // +2
  }
  return schema;
}

function enumOf(count: number): unknown {
  return { enum: Array.from({ length: count }, (_, i) => `v${i}`) };
}

/** The bounds of SCHEMA_LIMITS, at and past each edge. */
const LIMIT_CASES: Array<{ name: string; schema: () => unknown; accepted: boolean }> = [
  { name: "items 63 deep (64 nested objects)", schema: () => nested(63, "items"), accepted: true },
  { name: "items 64 deep (65 nested objects)", schema: () => nested(64, "items"), accepted: false },
  { name: "properties 31 deep", schema: () => nested(31, "properties"), accepted: true },
  { name: "properties 32 deep", schema: () => nested(32, "properties"), accepted: false },
  { name: "an enum of 1,000 values", schema: () => enumOf(1000), accepted: true },
  { name: "an enum of 1,001 values", schema: () => enumOf(1001), accepted: false },
  { name: "an enum of 60,000 values", schema: () => enumOf(60_000), accepted: false },
  {
    name: "32,768 characters of keys and strings",
    schema: () => ({ type: "string", description: "d".repeat(32_768 - 21) }), // 21: the rest
    accepted: true,
  },
  {
    name: "32,769 characters of keys and strings",
    schema: () => ({ type: "string", description: "d".repeat(32_769 - 21) }),
    accepted: false,
  },
  {
    name: "an enum of 1,000 strings of 60 characters",
    schema: () => ({ enum: Array.from({ length: 1000 }, (_, i) => `${i}`.padEnd(60, "x")) }),
    accepted: false,
  },
  {
    name: "4,096 JSON values",
    schema: () => ({ type: "array", prefixItems: Array(4092).fill({}), minItems: 0 }),
    accepted: true,
  },
  {
    name: "more than 4,096 JSON values",
    schema: () => ({ type: "array", prefixItems: Array(4093).fill({}), minItems: 0 }),
    accepted: false,
  },
];

for (const via of ["allOf", "anyOf", "items", "properties"] as const) {
  for (const levels of [5_000, 20_000]) {
    LIMIT_CASES.push({
      name: `${via} ${levels} deep`,
      schema: () => nested(levels, via),
      accepted: false,
    });
  }
}

for (const { name, schema, accepted } of LIMIT_CASES) {
  Deno.test(`toJsonOutputFormat ${accepted ? "accepts" : "refuses"} ${name}`, () => {
    const value = schema();
    if (accepted) {
      assert.equal(toJsonOutputFormat(value).kind, "json_schema");
      return;
    }
    assert.throws(() => toJsonOutputFormat(value), (error: unknown) => {
      assert.ok(error instanceof GenerationError, String(error));
      assert.match(error.message, /the limit/);
      return true;
    });
  });
}
