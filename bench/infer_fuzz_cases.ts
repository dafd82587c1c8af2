/**
 * The requests of the `tolk infer` fuzzer: a valid chat request (or another route) built from a
 * seeded generator, then mutated — JSON values replaced, removed, added or nested, bytes cut or
 * flipped, headers swapped, JSON Schemas bent (unknown keywords, recursion, thousands deep,
 * huge enums). Pure: the same seed gives the same cases.
 */
import { nestedJsonSchema } from "../tests/support/nested_json_schema.ts";

/** One request to send, with a short description that reproduces it in a report. */
export interface FuzzCase {
  url: string;
  init: RequestInit;
  describe: string;
}

type Random = () => number;
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

function chance(random: Random, p: number): boolean {
  return random() < p;
}

const TEXTS = [
  "hi",
  "",
  "Translate to German: good morning",
  "😀 emoji and ünïcödé",
  "\u0000\u0001 control",
  "a".repeat(4000),
  "zq xj ".repeat(1500), // longer than the tiny model's context
  '{"json": true}',
  "\ud800 lone surrogate",
];

const WEIRD: readonly Json[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  99_999_999,
  "",
  "x".repeat(10_000),
  "\u0000",
  "\ud800",
  "😀",
  [],
  {},
  [[[]]],
  { a: { b: {} } },
  "1",
  "null",
  [null],
  [1, "a", {}],
];

const KEYS = [
  "model",
  "messages",
  "max_tokens",
  "max_completion_tokens",
  "temperature",
  "top_p",
  "stop",
  "seed",
  "n",
  "stream",
  "stream_options",
  "response_format",
  "logit_bias",
  "tools",
  "__proto__",
  "constructor",
  "role",
  "content",
  "type",
  "json_schema",
  "schema",
];

const SCHEMA_KEYWORDS = [
  "type",
  "properties",
  "items",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "$ref",
  "$defs",
  "definitions",
  "required",
  "additionalProperties",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "not",
  "prefixItems",
  "minimum",
  "description",
];

const SCHEMAS: readonly Json[] = [
  { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
  { type: "array", items: { type: "string", maxLength: 3 }, maxItems: 2 },
  { enum: ["a", "b", "c"] },
  { anyOf: [{ type: "string" }, { type: "null" }] },
  { $defs: { A: { type: "integer" } }, type: "object", properties: { a: { $ref: "#/$defs/A" } } },
  { $defs: { A: { $ref: "#/$defs/A" } }, $ref: "#/$defs/A" },
  { $ref: "#" },
  { type: ["object", "null"], properties: { x: { const: 1 } } },
  { allOf: [{ type: "string" }] },
  { type: "string", format: "date-time" },
  true,
  {},
];

function schemaFor(random: Random): Json {
  const roll = random();
  if (roll < 0.05) {
    return nestedJsonSchema(pick(random, [10, 64, 65, 5_000, 20_000]), pick(random, VIA)) as Json;
  }
  if (roll < 0.08) {
    const count = pick(random, [10, 1000, 1001, 60_000]);
    return { enum: Array.from({ length: count }, (_, i) => `value-${i}`) };
  }
  const schema = structuredClone(pick(random, SCHEMAS));
  return chance(random, 0.6) ? mutate(random, schema, SCHEMA_KEYWORDS) : schema;
}

const VIA = ["allOf", "anyOf", "items", "properties"];

function baseBody(random: Random): Json {
  const body: Record<string, Json> = {
    messages: Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
      role: pick(random, ["user", "system", "assistant", "developer", "tool"]),
      content: chance(random, 0.1)
        ? [{ type: "text", text: pick(random, TEXTS) }]
        : pick(random, TEXTS),
    })),
    max_tokens: 1 + Math.floor(random() * 6),
  };
  if (chance(random, 0.5)) body.temperature = pick(random, [0, 0.7, 1, 2]);
  if (chance(random, 0.2)) body.top_p = pick(random, [0, 0.5, 1]);
  if (chance(random, 0.3)) body.seed = Math.floor(random() * 1000);
  if (chance(random, 0.3)) body.stop = pick(random, [["a", "b"], "e", ["th", "he", " ", "x"], []]);
  if (chance(random, 0.4)) body.stream = true;
  if (chance(random, 0.2)) body.stream_options = { include_usage: chance(random, 0.5) };
  if (chance(random, 0.25)) {
    body.response_format = chance(random, 0.3)
      ? { type: "json_object" }
      : { type: "json_schema", json_schema: { name: "f", schema: schemaFor(random) } };
  }
  if (chance(random, 0.1)) body.model = "tiny";
  return body;
}

/** Replaces, removes, adds or nests a value somewhere in `value` (1 to 3 times). */
function mutate(random: Random, value: Json, keys: readonly string[] = KEYS): Json {
  let out = value;
  const times = 1 + Math.floor(random() * 3);
  for (let i = 0; i < times; i++) out = mutateOnce(random, out, keys);
  return out;
}

function mutateOnce(random: Random, value: Json, keys: readonly string[]): Json {
  const containers: Array<Json[] | { [key: string]: Json }> = [];
  const walk = (node: Json, depth: number) => {
    if (depth > 8 || node === null || typeof node !== "object") return;
    containers.push(node);
    for (const child of Array.isArray(node) ? node : Object.values(node)) walk(child, depth + 1);
  };
  walk(value, 0);
  if (containers.length === 0) return pick(random, WEIRD);
  const target = pick(random, containers);
  const weird = () => (chance(random, 0.3) ? pick(random, SCHEMAS) : pick(random, WEIRD));
  if (Array.isArray(target)) {
    const at = Math.floor(random() * (target.length + 1));
    const op = random();
    if (op < 0.3) target.splice(at, 1);
    else if (op < 0.6) target.splice(at, 0, structuredClone(weird()));
    else if (target.length > 0) target[at % target.length] = [target[at % target.length]];
    return value;
  }
  const names = Object.keys(target);
  const op = random();
  if (op < 0.3 && names.length > 0) delete target[pick(random, names)];
  else if (op < 0.7 && names.length > 0) target[pick(random, names)] = structuredClone(weird());
  else if (op < 0.9) {
    // defineProperty: a "__proto__" key is sent as a key, not taken as a prototype.
    Object.defineProperty(target, pick(random, keys), {
      value: structuredClone(weird()),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else if (names.length > 0) {
    const name = pick(random, names);
    target[name] = { [pick(random, keys)]: target[name] };
  }
  return value;
}

/** Cuts, flips, inserts or duplicates bytes of a serialised body. */
function mutateBytes(random: Random, text: string): Uint8Array<ArrayBuffer> {
  const bytes = new TextEncoder().encode(text);
  const at = Math.floor(random() * bytes.length);
  const op = random();
  if (op < 0.3) return bytes.slice(0, at);
  if (op < 0.6) {
    const out = bytes.slice();
    out[at] = Math.floor(random() * 256);
    return out;
  }
  const insert = pick(random, [[0xff, 0xfe], [0xc3], [0xef, 0xbb, 0xbf], [0x00], [0x7b, 0x7b]]);
  const out = new Uint8Array(bytes.length + insert.length);
  out.set(bytes.subarray(0, at));
  out.set(insert, at);
  out.set(bytes.subarray(at), at + insert.length);
  return out;
}

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/vnd.api+json",
  "text/plain",
  "",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json;;;",
];

const REQUEST_IDS = ["abc", "a".repeat(128), "a".repeat(129), "bad id", "ü", "../x", "", "a.b_c-9"];

const OTHER_ROUTES: Array<[string, string]> = [
  ["GET", "/health"],
  ["GET", "/v1/models"],
  ["GET", "/v1/status"],
  ["GET", "/v1/chat/completions"],
  ["PUT", "/v1/chat/completions"],
  ["DELETE", "/v1/models"],
  ["OPTIONS", "/v1/chat/completions"],
  ["GET", "/"],
  ["GET", "/v1/"],
  ["POST", "/v1/chat/completions/"],
  ["POST", "/v1/models"],
  ["GET", "/v1/chat/completions%00"],
  ["GET", `/v1/${"x".repeat(3000)}`],
  ["PATCH", "/health"],
];

/** The next fuzz case. */
export function makeCase(random: Random, baseUrl: string): FuzzCase {
  const roll = random();
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (chance(random, 0.15)) headers["x-request-id"] = pick(random, REQUEST_IDS);
  if (roll < 0.07) {
    const [method, path] = pick(random, OTHER_ROUTES);
    const body = method === "GET" || method === "OPTIONS" ? undefined : "{}";
    return {
      url: `${baseUrl}${path}`,
      init: { method, headers, body },
      describe: `${method} ${path.slice(0, 40)}`,
    };
  }
  const body = baseBody(random);
  let describe = "valid body";
  let sent: BodyInit = JSON.stringify(body);
  if (roll < 0.72) {
    const mutated = mutate(random, body);
    describe = "mutated JSON";
    try {
      sent = JSON.stringify(mutated) ?? "null";
    } catch {
      sent = "[]"; // nested past what JSON.stringify can write (a 20,000-deep schema, wrapped)
      describe = "unwritable mutation";
    }
  } else if (roll < 0.84) {
    sent = mutateBytes(random, JSON.stringify(body));
    describe = "mutated bytes";
  } else if (roll < 0.94) {
    headers["content-type"] = pick(random, CONTENT_TYPES);
    if (chance(random, 0.3)) headers.authorization = pick(random, ["Bearer x", "Basic abc", ""]);
    describe = `content-type ${JSON.stringify(headers["content-type"])}`;
  }
  const size = typeof sent === "string" ? sent.length : (sent as Uint8Array).length;
  return {
    url: `${baseUrl}/v1/chat/completions`,
    init: { method: "POST", headers, body: sent },
    describe: `${describe} (${size} bytes): ${
      typeof sent === "string" ? sent.slice(0, 160) : "<bytes>"
    }`,
  };
}
