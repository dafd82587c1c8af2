/**
 * The OpenAI request fields that shape sampling beyond temperature and top_p, against a real
 * `tolk infer` app on the tiny random-weight fixture: `frequency_penalty` and `presence_penalty`
 * (-2..2) change what is drawn, `logprobs` reports each answer token's log probability, and a
 * demand the daemon cannot meet (`tool_choice` forcing a tool call) is a 400 naming the field
 * instead of an answer that ignores it.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { ChatCompletionChunkSchema, ChatCompletionSchema } from "../../schemas/openai.ts";
import { NATIVE_SANITIZERS, startInferApp } from "../support/infer_app.ts";
import { assertInferError, HI, postChat } from "../support/infer_requests.ts";

const OUT_OF_RANGE: Array<{ name: string; field: string; body: Record<string, unknown> }> = [
  { name: "frequency_penalty 2.5", field: "frequency_penalty", body: { frequency_penalty: 2.5 } },
  {
    name: "frequency_penalty -2.01",
    field: "frequency_penalty",
    body: { frequency_penalty: -2.01 },
  },
  { name: "presence_penalty 3", field: "presence_penalty", body: { presence_penalty: 3 } },
  { name: "presence_penalty -2.5", field: "presence_penalty", body: { presence_penalty: -2.5 } },
  {
    name: "frequency_penalty as a string",
    field: "frequency_penalty",
    body: { frequency_penalty: "1" },
  },
];

const TOOLS = [{
  type: "function",
  function: { name: "get_weather", parameters: { type: "object", properties: {} } },
}];

const UNMET_DEMANDS: Array<{ name: string; field: string; body: Record<string, unknown> }> = [
  { name: 'tool_choice "required"', field: "tool_choice", body: { tool_choice: "required" } },
  {
    name: "tool_choice naming a function",
    field: "tool_choice",
    body: { tool_choice: { type: "function", function: { name: "get_weather" } } },
  },
  // The deprecated form of the same demand (openai's `functions` + `function_call`): it was
  // ignored, and a client reading `message.function_call` found none.
  {
    name: "function_call naming a function",
    field: "function_call",
    body: { functions: [TOOLS[0].function], function_call: { name: "get_weather" } },
  },
];

const LOGPROBS_REFUSED: Array<{ name: string; body: Record<string, unknown> }> = [
  { name: "top_logprobs 3 without logprobs", body: { top_logprobs: 3 } },
  { name: "top_logprobs 3 with logprobs false", body: { logprobs: false, top_logprobs: 3 } },
  { name: "top_logprobs 21", body: { logprobs: true, top_logprobs: 21 } },
  { name: "top_logprobs -1", body: { logprobs: true, top_logprobs: -1 } },
];

/** A token of the tiny fixture with text of its own (not a control token). */
const BIASED_TOKEN = 300;

const LOGIT_BIAS_REFUSED: Array<{ name: string; bias: unknown; param: string }> = [
  { name: "of 101", bias: { [BIASED_TOKEN]: 101 }, param: `logit_bias.${BIASED_TOKEN}` },
  { name: "of -100.5", bias: { [BIASED_TOKEN]: -100.5 }, param: `logit_bias.${BIASED_TOKEN}` },
  { name: "keyed by a word", bias: { hello: 5 }, param: "logit_bias.hello" },
  { name: "keyed by -1", bias: { "-1": 5 }, param: "logit_bias.-1" },
  { name: "keyed past the vocabulary", bias: { "400": 5 }, param: "logit_bias" },
  { name: "as a list", bias: [5], param: "logit_bias" },
];

/** A two-token chat with `fields` is answered 200. */
async function assertAnswered(baseUrl: string, fields: Record<string, unknown>) {
  const response = await postChat(baseUrl, { messages: HI, max_tokens: 2, ...fields });
  assert.equal(response.status, 200, await response.clone().text());
  await response.body?.cancel();
}

Deno.test({
  name: "tolk infer: penalties, tool_choice and logprobs",
  ...NATIVE_SANITIZERS,
  fn: async (t) => {
    const app = await startInferApp();
    const client = new OpenAI({ baseURL: `${app.baseUrl}/v1`, apiKey: "unused", maxRetries: 0 });
    /** A greedy answer of 40 tokens: the same request always draws the same text. */
    const greedy = async (penalties: { frequency_penalty?: number; presence_penalty?: number }) => {
      const completion = await client.chat.completions.create({
        model: "tiny",
        messages: [{ role: "user", content: "Say something long." }],
        max_tokens: 40,
        temperature: 0,
        ...penalties,
      });
      return completion.choices[0].message.content!;
    };
    try {
      for (const row of OUT_OF_RANGE) {
        await t.step(`POST /v1/chat/completions refuses ${row.name} naming the field`, async () => {
          const response = await postChat(app.baseUrl, {
            messages: HI,
            max_tokens: 2,
            ...row.body,
          });
          await assertInferError(response, 400, "invalid_request", row.field);
        });
      }

      await t.step("penalties at the bounds -2 and 2 are accepted", async () => {
        for (const value of [-2, 2]) {
          await assertAnswered(app.baseUrl, { frequency_penalty: value, presence_penalty: value });
        }
      });

      await t.step("frequency_penalty and presence_penalty change a greedy answer", async () => {
        const plain = await greedy({});
        assert.equal(await greedy({}), plain, "greedy answers are reproducible");
        assert.equal(await greedy({ frequency_penalty: 0, presence_penalty: 0 }), plain);
        const frequency = await greedy({ frequency_penalty: 2 });
        assert.notEqual(frequency, plain, "frequency_penalty 2 had no effect");
        assert.equal(await greedy({ frequency_penalty: 2 }), frequency);
        const presence = await greedy({ presence_penalty: 2 });
        assert.notEqual(presence, plain, "presence_penalty 2 had no effect");
      });

      for (const row of UNMET_DEMANDS) {
        await t.step(`${row.name} is a 400 naming ${row.field}`, async () => {
          const response = await postChat(app.baseUrl, {
            messages: HI,
            max_tokens: 2,
            tools: TOOLS,
            ...row.body,
          });
          const body = await assertInferError(response, 400, "invalid_request", row.field);
          assert.match(body.error.message, /tool/);
        });
      }

      await t.step(
        'tool_choice and function_call "auto" and "none" are answered with text',
        async () => {
          for (const choice of ["auto", "none"]) {
            await assertAnswered(app.baseUrl, { tools: TOOLS, tool_choice: choice });
            const functions = [TOOLS[0].function];
            await assertAnswered(app.baseUrl, { functions, function_call: choice });
          }
        },
      );

      for (const row of LOGPROBS_REFUSED) {
        await t.step(`${row.name} is a 400 naming top_logprobs`, async () => {
          const response = await postChat(app.baseUrl, {
            messages: HI,
            max_tokens: 2,
            ...row.body,
          });
          await assertInferError(response, 400, "invalid_request", "top_logprobs");
        });
      }

      /** A greedy answer of 12 tokens with each token's logprobs and `top` alternatives. */
      /** A greedy 12-token request asking for logprobs (and `top` alternatives each). */
      const LONG_GREEDY = {
        model: "tiny",
        messages: [{ role: "user" as const, content: "Say something long." }],
        max_tokens: 12,
        temperature: 0,
        logprobs: true,
      };
      const withLogprobs = (top?: number, stop?: string) =>
        client.chat.completions.create({ ...LONG_GREEDY, top_logprobs: top, stop });

      // Answered with `logprobs: null`, a client reading `choices[0].logprobs.content` crashed.
      await t.step("logprobs true reports every answer token, spelling the answer", async () => {
        const completion = ChatCompletionSchema.parse(await withLogprobs(3));
        const [choice] = completion.choices;
        const content = choice.logprobs!.content!;
        if (choice.finish_reason === "length") {
          assert.equal(content.length, completion.usage.completion_tokens);
        }
        assert.ok(content.length > 0, "no token reported");
        const bytes = content.flatMap((entry) => entry.bytes!);
        assert.equal(new TextDecoder().decode(new Uint8Array(bytes)), choice.message.content);
        for (const entry of content) {
          assert.ok(entry.logprob <= 0 && Number.isFinite(entry.logprob), String(entry.logprob));
          assert.equal(entry.top_logprobs.length, 3);
          const ranked = entry.top_logprobs.map((top) => top.logprob);
          assert.deepEqual(ranked, [...ranked].sort((a, b) => b - a), "likeliest first");
          // Greedy: the drawn token is the likeliest one.
          assert.equal(entry.top_logprobs[0].token, entry.token);
          assert.equal(entry.top_logprobs[0].logprob, entry.logprob);
          assert.ok(ranked.reduce((sum, lp) => sum + Math.exp(lp), 0) <= 1 + 1e-6);
        }
      });

      await t.step("logprobs true without top_logprobs lists no alternatives", async () => {
        const completion = await withLogprobs();
        for (const entry of completion.choices[0].logprobs!.content!) {
          assert.deepEqual(entry.top_logprobs, []);
        }
      });

      /**
       * A streamed greedy answer's logprobs, chunk by chunk: each chunk of text carries the
       * tokens whose text has gone out, with it or before it (all of them once came with the
       * finish chunk, after the text, as OpenAI never sends them). Each prefix of them spells
       * a prefix of the answer so far.
       */
      const streamedLogprobs = async (stop?: string) => {
        const stream = await client.chat.completions.create({
          ...LONG_GREEDY,
          top_logprobs: 2,
          stop,
          stream: true,
        });
        const streamed: OpenAI.Chat.ChatCompletionTokenLogprob[] = [];
        let content = "";
        let withText = 0;
        for await (const chunk of stream) {
          ChatCompletionChunkSchema.parse(chunk);
          const tokens = chunk.choices[0]?.logprobs?.content ?? [];
          streamed.push(...tokens);
          if (!chunk.choices[0]?.delta.content) continue; // the finish chunk: the rest
          content += chunk.choices[0].delta.content;
          if (tokens.length) withText++;
          const sent = new Uint8Array(streamed.flatMap((entry) => entry.bytes!));
          const text = new TextEncoder().encode(content);
          assert.deepEqual(text.subarray(0, sent.length), sent, content);
        }
        return { streamed, content, withText };
      };

      await t.step("a streamed answer's chunks carry their tokens' logprobs", async () => {
        const whole = await withLogprobs(2);
        const { streamed, withText } = await streamedLogprobs();
        assert.deepEqual(streamed, whole.choices[0].logprobs!.content);
        assert.ok(withText > 0, "no chunk of text carried its tokens");
      });

      // They were listed, streamed with the finish chunk: logprobs beyond the returned content.
      await t.step("tokens a stop sequence cuts into are in no logprobs", async () => {
        const { content: answer } = (await withLogprobs(2)).choices[0].message;
        assert.ok(answer!.length >= 6, answer!);
        const stop = answer!.slice(4, 6);
        const whole = await withLogprobs(2, stop);
        const { streamed, content } = await streamedLogprobs(stop);
        assert.equal(content, whole.choices[0].message.content);
        assert.deepEqual(streamed, whole.choices[0].logprobs!.content);
        const spelled = new Uint8Array(streamed.flatMap((entry) => entry.bytes!));
        const text = new TextEncoder().encode(content);
        assert.ok(spelled.length <= text.length, "logprobs spell more than the answer");
        assert.deepEqual(text.subarray(0, spelled.length), spelled);
      });

      // The openai client's stream helper concatenates each chunk's logprobs: holding them for
      // the finish chunk (the text is held back for stop sequences) reads as the whole list.
      await t.step(
        "the openai stream helper's final completion has the same logprobs",
        async () => {
          const whole = await withLogprobs(2);
          const runner = client.chat.completions.stream({ ...LONG_GREEDY, top_logprobs: 2 });
          let done: unknown;
          runner.on("logprobs.content.done", ({ content }) => done = content);
          const final = await runner.finalChatCompletion();
          assert.deepEqual(final.choices[0].logprobs!.content, whole.choices[0].logprobs!.content);
          assert.deepEqual(done, whole.choices[0].logprobs!.content);
          assert.equal(final.choices[0].message.content, whole.choices[0].message.content);
        },
      );

      // It was accepted and ignored: the answer was the same as without it.
      await t.step("logit_bias 100 on a token makes a greedy answer that token only", async () => {
        const forced = await client.chat.completions.create({
          ...LONG_GREEDY,
          max_tokens: 6,
          logit_bias: { [BIASED_TOKEN]: 100 },
        });
        const tokens = forced.choices[0].logprobs!.content!.map((entry) => entry.token);
        assert.equal(tokens.length, 6, forced.choices[0].message.content!);
        assert.deepEqual(tokens, Array(6).fill(tokens[0]), forced.choices[0].message.content!);
      });

      for (const row of LOGIT_BIAS_REFUSED) {
        await t.step(`logit_bias ${row.name} is a 400 naming ${row.param}`, async () => {
          const response = await postChat(app.baseUrl, {
            messages: HI,
            max_tokens: 2,
            logit_bias: row.bias,
          });
          await assertInferError(response, 400, "invalid_request", row.param);
        });
      }

      await t.step("logprobs false and top_logprobs 0 are answered, logprobs null", async () => {
        const completion = await client.chat.completions.create({
          model: "tiny",
          messages: HI,
          max_tokens: 2,
          logprobs: false,
          top_logprobs: 0,
        });
        assert.equal(completion.choices[0].logprobs, null);
      });
    } finally {
      await app.stop();
    }
  },
});
