/**
 * The checks that keep a `response_format` schema honest: a schema whose grammar would answer
 * JSON that breaks it, or that node-llama-cpp would read as something else, is refused with 400
 * in the daemon's words. Each check names a case node-llama-cpp passed silently: it stretched a
 * bound, read a missing `$ref` as "any JSON", wrote every property and every `prefixItems` entry
 * whatever the bounds said, let an `enum` value of the wrong `type` out, and wrote a literal's
 * lone surrogate as U+FFFD. Pure.
 */
import { GenerationError } from "./generation.ts";

/** Keywords counting repetitions (items, characters, properties). */
export const REPETITION_KEYWORDS = new Set([
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "minProperties",
  "maxProperties",
]);

/**
 * The most repetitions a grammar holds: llama.cpp's `MAX_REPETITION_THRESHOLD`. Above it a lower
 * bound fails to compile and an upper bound is dropped (the output runs past it).
 */
export const MAX_REPETITIONS = 2000;

/** Lower and upper bounds that no value can meet at once. */
const BOUND_PAIRS = [
  ["minItems", "maxItems", "items"],
  ["minLength", "maxLength", "characters"],
  ["minProperties", "maxProperties", "properties"],
] as const;

/**
 * `value` of a repetition keyword at `where`, checked.
 *
 * @throws {GenerationError} `grammar` for a value that is not a whole number of 0 to 2000.
 */
export function checkedRepetitions(value: unknown, where: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    fail(`"${where}" must be a whole number of at least 0`);
  }
  if (value > MAX_REPETITIONS) {
    fail(
      `"${where}" is ${value}: a grammar repeats at most ${MAX_REPETITIONS} times ` +
        "(llama.cpp's limit, beyond which it leaves the bound unenforced)",
    );
  }
  return value;
}

/**
 * Refuses a normalised schema node no output can match, or one whose grammar would answer JSON
 * that breaks it.
 *
 * @throws {GenerationError} `grammar`, naming the keyword at `at`.
 */
export function checkSatisfiable(out: Record<string, unknown>, at: string): void {
  const where = (key: string) => `"${at ? `${at}.` : ""}${key}"`;
  for (const [min, max, what] of BOUND_PAIRS) {
    const [low, high] = [out[min], out[max]];
    if (typeof low === "number" && typeof high === "number" && low > high) {
      const after = min === "minItems" && out.prefixItems !== undefined
        ? " (maxItems, or prefixItems with items: false)"
        : ` (${max})`;
      fail(`${where(min)} asks for ${low} ${what}, more than the ${high} allowed${after}: ${NONE}`);
    }
  }
  if (Array.isArray(out.oneOf) && out.oneOf.length === 0) {
    fail(`${where("oneOf")} is empty: ${NONE}`);
  }
  const literals: Array<[string, unknown[]]> = [
    ["const", [out.const]],
    ["enum", Array.isArray(out.enum) ? out.enum : []],
    ["properties", Object.keys(isObject(out.properties) ? out.properties : {})],
  ];
  for (const [key, values] of literals) {
    if (values.some((value) => typeof value === "string" && !value.isWellFormed())) {
      fail(
        `${where(key)} holds a lone surrogate (half a UTF-16 pair): the grammar, UTF-8 text, ` +
          "would write U+FFFD in its place",
      );
    }
  }
  if (out.required !== undefined && !isStringList(out.required)) {
    fail(`${where("required")} must be a list of property names`);
  }
  // node-llama-cpp writes every prefixItems entry and every property, and stretched the bound.
  const prefix = Array.isArray(out.prefixItems) ? out.prefixItems.length : 0;
  if (typeof out.maxItems === "number" && out.maxItems < prefix) {
    fail(
      `${where("maxItems")} is below the ${prefix} prefixItems, which the grammar writes all of`,
    );
  }
  const named = Object.keys(isObject(out.properties) ? out.properties : {});
  if (typeof out.maxProperties === "number" && out.maxProperties < named.length) {
    fail(
      `${where("maxProperties")} is below the ${named.length} properties, which the grammar ` +
        "writes all of",
    );
  }
  const unnamed = (out.required as string[] | undefined ?? []).find((n) => !named.includes(n));
  if (unnamed !== undefined) {
    // Beside additionalProperties node-llama-cpp writes extra names optional, never required.
    fail(
      out.additionalProperties === false
        ? `${where("required")} names "${unnamed}", which is not in properties while ` +
          `additionalProperties is false: ${NONE}`
        : `${where("required")} names "${unnamed}", which is not in properties: the grammar ` +
          "writes only those as required (name it there)",
    );
  }
  // node-llama-cpp reads an absent additionalProperties as false (JSON Schema's is true).
  const closed = out.additionalProperties === undefined || out.additionalProperties === false;
  if (closed && typeof out.minProperties === "number" && out.minProperties > named.length) {
    fail(
      `${where("minProperties")} asks for ${out.minProperties} properties, more than the ` +
        `${named.length} allowed (properties, with additionalProperties absent or false): ${NONE}`,
    );
  }
}

/**
 * Refuses a `$ref` naming no `$defs` entry of the normalised `schema` (node-llama-cpp read it as
 * any JSON at all). Walks without recursion, as the limits' walk does.
 *
 * @throws {GenerationError} `grammar`, naming the reference.
 */
export function checkRefs(schema: Record<string, unknown>): void {
  const defined = new Set<string>();
  const refs: string[] = [];
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) stack.push(...value);
    if (!isObject(value)) continue;
    if (isObject(value.$defs)) { for (const name in value.$defs) defined.add(name); }
    if (typeof value.$ref === "string") refs.push(value.$ref);
    stack.push(...Object.values(value));
  }
  const missing = refs.find((ref) => !defined.has(ref.slice("#/$defs/".length)));
  if (missing !== undefined) fail(`"$ref" "${missing}" names no $defs entry`);
}

/**
 * `node` with its `enum` cut to the values of its `type`, as JSON Schema reads both at once
 * (node-llama-cpp wrote any value of the enum); `node` itself when there is nothing to cut.
 *
 * @throws {GenerationError} `grammar` when no `enum` or `const` value has the `type`.
 */
export function literalsOfType(
  node: Record<string, unknown>,
  at: string,
): Record<string, unknown> {
  if (node.type === undefined) return node;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const fits = (value: unknown) => types.some((type) => hasType(value, type));
  const where = (key: string) => `"${at ? `${at}.` : ""}${key}"`;
  if ("const" in node && !fits(node.const)) {
    fail(`${where("const")} is not of the type ${JSON.stringify(node.type)}: ${NONE}`);
  }
  if (!Array.isArray(node.enum) || node.enum.every(fits)) return node;
  const kept = node.enum.filter(fits);
  if (kept.length === 0) {
    fail(`${where("enum")} has no value of the type ${JSON.stringify(node.type)}: ${NONE}`);
  }
  return { ...node, enum: kept };
}

const NONE = "no output can match";

function hasType(value: unknown, type: unknown): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "integer":
      return Number.isInteger(value);
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    default:
      return typeof value === "boolean";
  }
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function fail(reason: string): never {
  throw new GenerationError({ kind: "grammar", reason });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
