/**
 * Values under a `response_format` JSON schema, as the openai client reads them from a real
 * `tolk infer` daemon: an `integer` is written as one (digits, no exponent, as llama.cpp's
 * schema grammars and OpenAI's strict mode write it), a `number` parses to a finite value (under
 * `json_object` too), an `enum` or `const` string comes back as itself whatever characters it
 * holds, a `date` is a day of the calendar, and keywords beside `prefixItems` or a type list
 * hold. The random-weight fixture at temperature 1 draws
 * every digit the grammar allows. */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { z } from "zod";
import { startInferDaemon } from "../support/infer_daemon.ts";

/** A schema of `{"n": [eight values of type]}`. */
function eightOf(type: "integer" | "number") {
  return {
    type: "object",
    properties: { n: { type: "array", items: { type }, minItems: 8, maxItems: 8 } },
    required: ["n"],
    additionalProperties: false,
  };
}

Deno.test("tolk infer: values under a json_schema are what the schema says", async (t) => {
  const daemon = await startInferDaemon();
  const client = new OpenAI({ baseURL: `${daemon.baseUrl}/v1`, apiKey: "unused", maxRetries: 0 });
  /** The raw content and the parsed values of one answer under `eightOf(type)`. */
  const draw = async (type: "integer" | "number", seed: number) => {
    const completion = await client.chat.completions.create({
      model: "tiny",
      messages: [{ role: "user", content: "Eight numbers, please." }],
      max_tokens: 200,
      temperature: 1,
      seed,
      response_format: {
        type: "json_schema",
        json_schema: { name: "numbers", strict: true, schema: eightOf(type) },
      },
    });
    assert.equal(completion.choices[0].finish_reason, "stop");
    const content = completion.choices[0].message.content!;
    return { content, values: (JSON.parse(content) as { n: number[] }).n };
  };
  /** One answer at temperature 1 under the json_schema `schema`, asked with `prompt`. */
  const answer = async (
    schema: Record<string, unknown>,
    seed: number,
    prompt: string,
    maxTokens: number,
  ) => {
    const completion = await client.chat.completions.create({
      model: "tiny",
      messages: [{ role: "user", content: prompt }],
      max_tokens: maxTokens,
      temperature: 1,
      seed,
      response_format: { type: "json_schema", json_schema: { name: "answer", schema } },
    });
    const [choice] = completion.choices;
    return { content: choice.message.content!, finishReason: choice.finish_reason };
  };
  try {
    await t.step("an integer has no exponent and no fraction", async () => {
      for (const seed of [1, 2, 3, 4]) {
        // Once "607E9", "-8899E81" and "42727e134908101771" (Infinity once parsed).
        const { content, values } = await draw("integer", seed);
        assert.doesNotMatch(content, /[eE.]/, `seed ${seed}: ${content}`);
        assert.ok(values.every(Number.isInteger), `seed ${seed}: ${content}`);
      }
    });

    await t.step("a number parses to a finite value", async () => {
      for (const seed of [1, 2, 3, 4]) {
        // Exponents of up to 16 digits once overflowed: "9e1372917257665635" is Infinity.
        const { content, values } = await draw("number", seed);
        assert.ok(values.every(Number.isFinite), `seed ${seed}: ${content}`);
      }
    });

    await t.step("a number under json_object parses to a finite value", async () => {
      // Seeds 8 and 36 once answered "8476E9488" and "34869e056946" (Infinity); with the
      // exponent bounded they run to max_tokens, and 7, 22 and 30 write exponents that parse.
      const exponents: string[] = [];
      for (const seed of [7, 8, 22, 30, 36]) {
        const completion = await client.chat.completions.create({
          model: "tiny",
          messages: [{ role: "user", content: '{"a": 1e5, "b": 2e9}' }],
          max_tokens: 300,
          temperature: 1.5,
          seed,
          response_format: { type: "json_object" },
        });
        if (completion.choices[0].finish_reason !== "stop") continue;
        const content = completion.choices[0].message.content!;
        JSON.parse(content, (_key, value, context?: { source?: string }) => {
          if (typeof value !== "number") return value;
          assert.ok(Number.isFinite(value), `seed ${seed}: ${context?.source} in ${content}`);
          if (/e/i.test(context?.source ?? "")) exponents.push(context!.source!);
          return value;
        });
      }
      assert.ok(exponents.length >= 3, `numbers with an exponent: ${exponents}`);
    });

    await t.step(
      "enum, const and key strings with control characters come back as JSON",
      async () => {
        // Only \t, \n and \r were escaped: "a\u0001b" came out raw, and JSON.parse refused it.
        const strange = ["a\u0001b", "\u0000", "bell\u0007\b\f", "tab\tnew\nline\r", 'q"\\z'];
        const schema = {
          type: "object",
          properties: {
            pick: { enum: strange },
            fixed: { const: strange[0] },
            [`key\u001f${strange[2]}`]: { type: "boolean" },
          },
          required: ["pick", "fixed", `key\u001f${strange[2]}`],
          additionalProperties: false,
        };
        for (const seed of [1, 2, 3]) {
          const { content, finishReason } = await answer(schema, seed, "Pick one.", 300);
          assert.equal(finishReason, "stop", content);
          z.fromJSONSchema(schema as never).parse(JSON.parse(content));
        }
      },
    );

    for (
      const [name, schema] of [
        // Once: [false, -293887, null], items after the prefix the schema forbids.
        ["prefixItems with items false", {
          type: "array",
          prefixItems: [{ type: "boolean" }, { type: "integer" }],
          items: false,
        }],
        // Once: {"x": "7beMW the it/b", "y": 7}, maxLength dropped beside a type list.
        ["a type list beside maxLength", {
          type: "object",
          properties: { x: { type: ["string", "null"], maxLength: 2 }, y: { type: "integer" } },
          required: ["x", "y"],
          additionalProperties: false,
        }],
      ] as const
    ) {
      await t.step(`${name}: every answer matches the schema`, async () => {
        for (const seed of [1, 2, 3, 4]) {
          const { content, finishReason } = await answer(schema, seed, "json", 200);
          assert.equal(finishReason, "stop", content);
          const result = z.fromJSONSchema(schema as never).safeParse(JSON.parse(content));
          assert.ok(result.success, `seed ${seed}: ${content}`);
        }
      });
    }

    await t.step("a date or date-time format is a day of the calendar", async () => {
      const schema = {
        type: "object",
        properties: {
          d: { type: "array", items: { type: "string", format: "date" }, minItems: 8, maxItems: 8 },
          t: {
            type: "array",
            items: { type: "string", format: "date-time" },
            minItems: 4,
            maxItems: 4,
          },
        },
        required: ["d", "t"],
        additionalProperties: false,
      };
      const notDays: string[] = [];
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const value = JSON.parse((await answer(schema, seed, "dates", 400)).content);
        for (const text of [...value.d, ...value.t] as string[]) {
          const day = text.slice(0, 10);
          const parsed = new Date(`${day}T00:00:00Z`);
          if (Number.isNaN(+parsed) || parsed.toISOString().slice(0, 10) !== day) {
            notDays.push(text);
          }
        }
      }
      // Any month once had 31 days: "4861-11-31T02:37:28.297+20:07", "0721-11-31T10:25:05.258Z".
      assert.deepEqual(notDays, []);
    });
  } finally {
    assert.equal(await daemon.stop(), 0);
  }
});
