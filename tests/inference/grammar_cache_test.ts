import assert from "node:assert/strict";
import { GRAMMAR_CACHE_SIZE, GrammarCache } from "../../inference/grammar_cache.ts";
import type { OutputFormat } from "../../inference/generation.ts";
import { loadLlama } from "../../inference/llama_model.ts";
import { toJsonOutputFormat } from "../../inference/json_schema_grammar.ts";
import type { LlamaModel } from "node-llama-cpp";
import { gbnfRuleRegExp } from "../support/gbnf_regexp.ts";
import { grammarAccepts } from "../support/grammar_acceptance.ts";
import { NATIVE_SANITIZERS as NATIVE } from "../support/infer_app.ts";
import { TINY_GGUF } from "../support/infer_daemon.ts";

/** A distinct small schema per `n`: an object with one required integer property. */
const schema = (n: number): OutputFormat => ({
  kind: "json_schema",
  schema: { type: "object", properties: { [`p${n}`]: { type: "integer" } }, required: [`p${n}`] },
});

Deno.test({
  name: "GrammarCache compiles a format once, keeps the last 32 schemas and drops the oldest",
  ...NATIVE,
  async fn() {
    const llama = await loadLlama(false);
    try {
      const grammars = new GrammarCache(llama);
      assert.equal(await grammars.grammarFor({ kind: "text" }), undefined);
      const json = await grammars.grammarFor({ kind: "json" });
      assert.ok(json, "any JSON has a grammar");
      assert.equal(await grammars.grammarFor({ kind: "json" }), json);

      const first = await grammars.grammarFor(schema(0));
      assert.match(first!.grammar, /p0/);
      assert.equal(await grammars.grammarFor(schema(0)), first, "the same schema, compiled once");
      // With "json" and schema 0 these make 33 formats: "json", the oldest, is dropped.
      for (let n = 1; n < GRAMMAR_CACHE_SIZE; n++) await grammars.grammarFor(schema(n));
      assert.equal(await grammars.grammarFor(schema(0)), first, "32 formats are kept");
      await grammars.grammarFor(schema(GRAMMAR_CACHE_SIZE)); // now schema 0 is the oldest
      const again = await grammars.grammarFor(schema(0));
      assert.notEqual(again, first, "the oldest schema was dropped and compiled again");
      assert.equal(again!.grammar, first!.grammar);
    } finally {
      await llama.dispose();
    }
  },
});

/** `\u` escapes in a JSON string and whether a strict reader pairs every surrogate. */
const UNICODE_ESCAPES = [
  { escapes: "\\u00e9", pairable: true },
  { escapes: "\\uD83D\\uDE00", pairable: true }, // 😀, a high then a low surrogate
  { escapes: "\\ud7ff\\ue000\\uFFFF", pairable: true }, // either side of the surrogates
  { escapes: "\\uD800", pairable: false }, // a high surrogate, alone
  { escapes: "\\uD83Da", pairable: false }, // a high surrogate followed by no escape
  { escapes: "\\uDE00", pairable: false }, // a low surrogate, alone
  { escapes: "\\uDE00\\uD83D", pairable: false }, // the pair reversed
  { escapes: "\\uD83D\\uD83D", pairable: false }, // two highs
] as const;

Deno.test({
  name: "GrammarCache's JSON strings hold a \\u surrogate escape only as half of a pair",
  ...NATIVE,
  async fn() {
    const llama = await loadLlama(false);
    try {
      const grammars = new GrammarCache(llama);
      const json = await grammars.grammarFor({ kind: "json" });
      const stringSchema = await grammars.grammarFor({
        kind: "json_schema",
        schema: { type: "object", properties: { s: { type: "string" } }, required: ["s"] },
      });
      const readers = [
        { name: "json_object", string: gbnfRuleRegExp(json!.grammar, "string") },
        { name: "json_schema", string: gbnfRuleRegExp(stringSchema!.grammar, "string-rule") },
      ];
      for (const { name, string } of readers) {
        for (const { escapes, pairable } of UNICODE_ESCAPES) {
          // A lone surrogate is refused by strict readers (Rust's serde_json) and turned into
          // U+FFFD by others (Go's encoding/json): it was allowed, any four hex digits were.
          assert.equal(string.test(`"x${escapes}y"`), pairable, `${name}: "x${escapes}y"`);
        }
      }
    } finally {
      await llama.dispose();
    }
  },
});

Deno.test({
  name: "GrammarCache's schema integers have at most 15 digits, each exact as a double",
  ...NATIVE,
  async fn() {
    const llama = await loadLlama(false);
    try {
      const grammar = await new GrammarCache(llama).grammarFor({
        kind: "json_schema",
        schema: { type: "array", items: { type: "integer" } },
      });
      const integer = gbnfRuleRegExp(grammar!.grammar, "integer-number-rule");
      for (const text of ["0", "-7", "999999999999999", "-999999999999999"]) {
        assert.ok(integer.test(text), text);
      }
      // 16 digits reach past 2^53 - 1 (9007199254740991), where doubles skip integers.
      for (const text of ["9999999999999999", "9007199254740993", "01", "1e3"]) {
        assert.ok(!integer.test(text), text);
      }
    } finally {
      await llama.dispose();
    }
  },
});

/** A grammar cache and the tiny model's vocabulary (to run grammars on text), freed after `fn`. */
async function withVocabulary(
  fn: (grammars: GrammarCache, vocabulary: LlamaModel) => Promise<void>,
): Promise<void> {
  const llama = await loadLlama(false);
  const vocabulary = await llama.loadModel({ modelPath: TINY_GGUF, vocabOnly: true });
  try {
    await fn(new GrammarCache(llama), vocabulary);
  } finally {
    await vocabulary.dispose();
    await llama.dispose();
  }
}

Deno.test({
  name: "GrammarCache's bare object schema admits any object, as JSON Schema's does",
  ...NATIVE,
  fn: () =>
    withVocabulary(async (grammars, vocabulary) => {
      const cases = [
        { type: "object" },
        { type: "object", additionalProperties: true },
        { type: "object", minProperties: 1 },
        { type: ["object", "null"] },
      ];
      for (const schema of cases) {
        const grammar = (await grammars.grammarFor(toJsonOutputFormat(schema)))!;
        const accepts = (text: string) => grammarAccepts(vocabulary, grammar, text);
        const name = JSON.stringify(schema);
        // It admitted `{}` alone: an object with members was refused at its first quote.
        assert.ok(accepts('{"a": 1, "b": {"c": [true, null, "x"]}}'), `${name}: members`);
        assert.ok(!accepts('{"a": 1'), `${name}: an unclosed object`);
        assert.ok(!accepts("[1]"), `${name}: an array`);
      }
      const json = (await grammars.grammarFor({ kind: "json" }))!;
      assert.ok(grammarAccepts(vocabulary, json, '{"a": {"b": [1]}}'), "json_object: members");
    }),
});

/** Sub-schemas that admit any JSON value (JSON Schema's `true` and `{}`), in each place. */
const ANY_VALUE_PLACES: Array<{ name: string; schema: (any: unknown) => unknown; wrap: string }> = [
  {
    name: "a property",
    schema: (any) => ({ type: "object", properties: { a: any }, required: ["a"] }),
    wrap: '{"a": %}',
  },
  { name: "items", schema: (any) => ({ type: "array", items: any, minItems: 1 }), wrap: "[%]" },
  {
    name: "additionalProperties",
    schema: (any) => ({ type: "object", additionalProperties: any, minProperties: 1 }),
    wrap: '{"a": %}',
  },
  { name: "prefixItems", schema: (any) => ({ type: "array", prefixItems: [any] }), wrap: "[%]" },
  { name: "anyOf", schema: (any) => ({ anyOf: [any, { type: "null" }] }), wrap: "%" },
  {
    name: "a $defs entry",
    schema: (any) => ({
      $defs: { A: any },
      type: "object",
      properties: { a: { $ref: "#/$defs/A" } },
      required: ["a"],
    }),
    wrap: '{"a": %}',
  },
];

Deno.test({
  name: "GrammarCache's true and {} sub-schemas admit any JSON value, objects and arrays too",
  ...NATIVE,
  fn: () =>
    withVocabulary(async (grammars, vocabulary) => {
      for (const any of [true, {}, { description: "anything" }, { title: "T" }]) {
        for (const { name, schema, wrap } of ANY_VALUE_PLACES) {
          const grammar = (await grammars.grammarFor(toJsonOutputFormat(schema(any))))!;
          const label = `${JSON.stringify(any)} as ${name}`;
          // It admitted scalars alone (or null alone): an object or array was refused.
          for (
            const value of ['"x"', "1.5", "true", "null", '{"b": [1, {"c": null}]}', "[2, []]"]
          ) {
            const text = wrap.replace("%", value);
            assert.ok(grammarAccepts(vocabulary, grammar, text), `${label}: ${text}`);
          }
          assert.ok(!grammarAccepts(vocabulary, grammar, wrap.replace("%", "[1")), label);
        }
      }
    }),
});
