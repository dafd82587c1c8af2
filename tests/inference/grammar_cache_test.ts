import assert from "node:assert/strict";
import { GRAMMAR_CACHE_SIZE, GrammarCache } from "../../inference/grammar_cache.ts";
import type { OutputFormat } from "../../inference/generation.ts";
import { loadLlama } from "../../inference/llama_model.ts";
import { NATIVE_SANITIZERS as NATIVE } from "../support/infer_app.ts";

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
