/**
 * Turns a request's JSON Schema into the subset node-llama-cpp compiles to a grammar.
 *
 * The grammar is what guarantees the output parses and matches, so a keyword the grammar cannot
 * enforce (a `pattern`, a numeric range) is refused with 400 rather than silently dropped.
 * Annotation keywords are dropped; `anyOf` becomes `oneOf` (any output of the `oneOf` grammar
 * matches the `anyOf`); `definitions` refs become `$defs` refs. Pure: no runtime import.
 *
 * Compiling runs on the event loop (node-llama-cpp builds the grammar text in JS, llama.cpp
 * parses it synchronously), and its cost grows faster than linearly with the alternatives of an
 * `enum` (5,000 values: ~1 s; 60,000: 17 s), so schemas are bounded before anything is compiled
 * ({@link SCHEMA_LIMITS}); within the bounds a compile takes tens of milliseconds (BENCHMARKS.md).
 */
import { GenerationError, type OutputFormat } from "./generation.ts";
import { MAX_GRAMMAR_INTEGER } from "./json_grammar_text.ts";
import {
  checkedRepetitions,
  checkRefs,
  checkSatisfiable,
  literalsOfType,
  REPETITION_KEYWORDS,
} from "./json_schema_checks.ts";

/** What the runtime compiles: any JSON value, or JSON matching a (normalised) schema. */
export type JsonOutputFormat = Exclude<OutputFormat, { kind: "text" }>;

/**
 * What a `response_format` schema may hold: nesting depth of its JSON objects and arrays, JSON
 * values in all (scalars included), `enum` plus `const` alternatives in all, and characters of
 * keys and strings in all (long names and values cost as much as many short ones). Beyond them
 * the request is a 400 (README, "tolk infer").
 */
export const SCHEMA_LIMITS = {
  maxDepth: 64,
  maxNodes: 4096,
  maxAlternatives: 1000,
  maxCharacters: 32_768,
} as const;

const ANNOTATIONS = new Set([
  "title",
  "$schema",
  "$id",
  "$comment",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "strict",
]);

const KEPT = new Set([
  "type",
  "description",
  "enum",
  "const",
  "oneOf",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "prefixItems",
  "$ref",
  "$defs",
]);

const GRAMMAR_FORMATS = new Set(["date-time", "time", "date"]);

/**
 * Normalises `schema` (from `response_format.json_schema.schema`) for the grammar compiler.
 *
 * @throws {GenerationError} `grammar` when the schema uses a keyword no grammar enforces.
 */
export function toJsonOutputFormat(schema: unknown): JsonOutputFormat {
  if (schema === undefined || schema === true) return { kind: "json" };
  if (schema === false || !isObject(schema)) {
    throw new GenerationError({
      kind: "grammar",
      reason: "the schema must be a JSON Schema object",
    });
  }
  checkLimits(schema);
  const normalised = normalise(schema, "");
  checkRefs(normalised);
  return isUnconstrained(normalised)
    ? { kind: "json" }
    : { kind: "json_schema", schema: normalised };
}

/**
 * The schema of any JSON value, in node-llama-cpp's words: an array without `items` and an
 * object with `additionalProperties: true` are its "any JSON". It reads `{}` (and `items: true`)
 * as `null` alone, and a scalar type list stood in for it: `{}` admitted no object or array.
 */
const ANY_VALUE = {
  oneOf: [
    { type: ["string", "number", "boolean", "null"] },
    { type: "array" },
    { type: "object", additionalProperties: true },
  ],
} as const;

/** A normalised schema that constrains nothing (JSON Schema's `{}`, perhaps described). */
function isUnconstrained(normalised: Record<string, unknown>): boolean {
  return Object.keys(normalised).every((key) => key === "description");
}

function normalise(given: Record<string, unknown>, at: string): Record<string, unknown> {
  const node = literalsOfType(given, at);
  const literals = structuredLiterals(node, at);
  if (literals !== undefined) return normalise(literals, at);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const where = at ? `${at}.${key}` : key;
    if (ANNOTATIONS.has(key)) continue;
    if (key === "format") {
      if (typeof value === "string" && GRAMMAR_FORMATS.has(value)) out.format = value;
      continue; // other formats are annotations in JSON Schema 2020-12
    }
    if (isIntegerBoundBeyondGrammar(node, key, value)) continue; // enforced as it stands
    if (key === "anyOf" || key === "oneOf") out.oneOf = list(value, where).map(sub(where));
    else if (key === "allOf") Object.assign(out, mergeAllOf(value, where));
    else if (key === "definitions" || key === "$defs") out.$defs = map(value, where);
    else if (key === "properties") out.properties = map(value, where);
    else if (key === "items" && value === false) continue; // noItemsAfterPrefix, below
    else if (key === "additionalProperties" && typeof value === "boolean") out[key] = value;
    else if (key === "items" || key === "additionalProperties") out[key] = sub(where)(value);
    else if (key === "prefixItems") out.prefixItems = list(value, where).map(sub(where));
    else if (key === "$ref") out.$ref = rewriteRef(value, where);
    else if (key === "type") out.type = checkedType(value, where);
    else if (REPETITION_KEYWORDS.has(key)) out[key] = checkedRepetitions(value, where);
    else if (KEPT.has(key)) out[key] = value;
    else refuse(where);
  }
  if (node.items === false) noItemsAfterPrefix(out);
  if (out.type === undefined) inferType(out);
  openBareObject(out);
  checkSatisfiable(out, at);
  return splitCompositeType(out);
}

/**
 * A `const` object or array, or an `enum` holding one, as the schema of exactly those values:
 * node-llama-cpp writes only scalar literals (it threw "Unrecognized literal type: object"),
 * while llama.cpp's own schema grammars, llama-server's, take any JSON value. Undefined when
 * every literal is a scalar.
 */
function structuredLiterals(
  node: Record<string, unknown>,
  at: string,
): Record<string, unknown> | undefined {
  const { description } = node;
  const described = (schema: Record<string, unknown>) =>
    description === undefined ? schema : { ...schema, description };
  if (isStructured(node.const)) return described(literalSchema(node.const));
  if (!Array.isArray(node.enum)) return undefined;
  if (node.enum.length === 0) fail(`"${at ? `${at}.` : ""}enum" is empty: no output can match`);
  if (!node.enum.some(isStructured)) return undefined;
  return described({ oneOf: node.enum.map(literalSchema) });
}

/** The schema whose one value is `value`. */
function literalSchema(value: unknown): Record<string, unknown> {
  if (Array.isArray(value)) {
    return { type: "array", prefixItems: value.map(literalSchema), maxItems: value.length };
  }
  if (!isObject(value)) return { const: value };
  return {
    type: "object",
    properties: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, literalSchema(v)])),
    required: Object.keys(value),
    additionalProperties: false,
  };
}

function isStructured(value: unknown): boolean {
  return typeof value === "object" && value !== null;
}

/**
 * A `minimum` or `maximum` of an `integer` that every integer the grammar writes meets already:
 * zod 4 writes `z.int()` (so the openai client's `zodResponseFormat`) with the bounds ±(2^53 - 1).
 */
function isIntegerBoundBeyondGrammar(
  node: Record<string, unknown>,
  key: string,
  value: unknown,
): boolean {
  if (node.type !== "integer" || typeof value !== "number") return false;
  return key === "minimum"
    ? value <= -MAX_GRAMMAR_INTEGER
    : key === "maximum"
    ? value >= MAX_GRAMMAR_INTEGER
    : false;
}

/**
 * `items: false` (no item after `prefixItems`) as `maxItems`: node-llama-cpp read the `false`
 * as a schema and wrote more items after the prefix.
 */
function noItemsAfterPrefix(out: Record<string, unknown>): void {
  const prefix = Array.isArray(out.prefixItems) ? out.prefixItems.length : 0;
  const max = typeof out.maxItems === "number" ? out.maxItems : Infinity;
  out.maxItems = Math.min(prefix, max);
  out.type ??= "array";
}

/**
 * Walks the schema without recursion (a 20,000-deep schema must not overflow the stack) and
 * stops at the first bound it passes, before looking at the rest.
 */
function checkLimits(schema: Record<string, unknown>): void {
  const { maxDepth, maxNodes, maxAlternatives, maxCharacters } = SCHEMA_LIMITS;
  const stack: Array<[unknown, number]> = [[schema, 1]];
  let nodes = 0;
  let alternatives = 0;
  let characters = 0;
  const tooLarge = () => fail(`more than ${maxNodes} JSON values (the limit)`);
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++nodes > maxNodes) tooLarge();
    const children = Array.isArray(value) ? value : isObject(value) ? Object.values(value) : [];
    if (children.length > 0 && depth > maxDepth) {
      fail(`nested deeper than ${maxDepth} levels (the limit)`);
    }
    if (nodes + stack.length + children.length > maxNodes) tooLarge();
    if (typeof value === "string") characters += value.length;
    if (isObject(value)) {
      for (const key in value) characters += key.length;
      if (Array.isArray(value.enum)) alternatives += value.enum.length;
      if ("const" in value) alternatives++;
      if (alternatives > maxAlternatives) {
        fail(`more than ${maxAlternatives} enum and const values in all (the limit)`);
      }
    }
    if (characters > maxCharacters) {
      fail(`more than ${maxCharacters} characters of keys and strings in all (the limit)`);
    }
    for (const child of children) stack.push([child, depth + 1]);
  }
}

function sub(at: string) {
  return (value: unknown, index?: number) => {
    const where = index === undefined ? at : `${at}[${index}]`;
    if (value === true) return structuredClone(ANY_VALUE);
    if (!isObject(value)) refuse(where);
    const normalised = normalise(value as Record<string, unknown>, where);
    return isUnconstrained(normalised)
      ? { ...structuredClone(ANY_VALUE), ...normalised }
      : normalised;
  };
}

function map(value: unknown, at: string): Record<string, unknown> {
  if (!isObject(value)) refuse(at);
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(value as Record<string, unknown>)) {
    out[name] = sub(`${at}.${name}`)(schema);
  }
  return out;
}

function list(value: unknown, at: string): unknown[] {
  if (!Array.isArray(value)) refuse(at);
  return value as unknown[];
}

function mergeAllOf(value: unknown, at: string): Record<string, unknown> {
  const parts = list(value, at);
  if (parts.length !== 1) refuse(at); // merging arbitrary schemas is not a grammar
  return sub(at)(parts[0]);
}

function rewriteRef(value: unknown, at: string): string {
  if (typeof value !== "string") refuse(at);
  const ref = value as string;
  if (ref.startsWith("#/$defs/")) return ref;
  if (ref.startsWith("#/definitions/")) return `#/$defs/${ref.slice("#/definitions/".length)}`;
  return refuse(at);
}

/** JSON Schema's types: a `type` naming another is no schema (it was accepted, and meant nothing). */
const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "null", "object", "array"]);

function checkedType(value: unknown, where: string): unknown {
  const types = Array.isArray(value) ? value : [value];
  if (types.length === 0 || !types.every((type) => JSON_TYPES.has(type as string))) {
    fail(`"${where}" must be one of ${[...JSON_TYPES].join(", ")} (or a list of them)`);
  }
  return value;
}

function inferType(out: Record<string, unknown>): void {
  if (out.properties !== undefined || out.additionalProperties !== undefined) out.type = "object";
  else if (out.items !== undefined || out.prefixItems !== undefined) out.type = "array";
}

/**
 * An object schema naming no properties as one of any members, JSON Schema's reading (and
 * llama.cpp's, llama-server's): node-llama-cpp reads an absent `additionalProperties` as false,
 * so `{type: "object"}` admitted `{}` alone. With named properties it stays closed, as in
 * llama.cpp, where a model writes the properties a schema names. max_tokens bounds the rest.
 */
function openBareObject(out: Record<string, unknown>): void {
  const types = Array.isArray(out.type) ? out.type : [out.type];
  if (!types.includes("object") || out.properties !== undefined) return;
  out.additionalProperties ??= true;
}

/** The keywords of a string schema (beside a type list, node-llama-cpp dropped them). */
const STRING_KEYWORDS = new Set(["minLength", "maxLength", "format"]);

/**
 * `type: ["object", "null"]` is not a grammar type list, and beside `type: ["string", "null"]`
 * node-llama-cpp drops `maxLength`: express them as `oneOf`.
 */
function splitCompositeType(out: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(out.type)) return out;
  const types = out.type as string[];
  const { type: _type, description, ...rest } = out;
  const forString = Object.fromEntries(
    Object.entries(rest).filter(([key]) => STRING_KEYWORDS.has(key)),
  );
  const structured = types.includes("object") || types.includes("array");
  if (!structured && !(types.includes("string") && Object.keys(forString).length > 0)) return out;
  const oneOf = types.map((t) =>
    t === "object" || t === "array"
      ? { ...rest, type: t }
      : t === "string"
      ? { ...forString, type: t }
      : { type: t }
  );
  return description === undefined ? { oneOf } : { oneOf, description };
}

function refuse(where: string): never {
  return fail(`keyword "${where}" cannot be enforced by a grammar`);
}

function fail(reason: string): never {
  throw new GenerationError({ kind: "grammar", reason });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
