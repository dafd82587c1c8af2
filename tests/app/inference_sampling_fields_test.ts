/**
 * The OpenAI request fields that shape sampling beyond temperature and top_p, against a real
 * `tolk infer` app on the tiny random-weight fixture: `frequency_penalty` and `presence_penalty`
 * (-2..2) change what is drawn, and a demand the daemon cannot meet (`tool_choice` forcing a tool
 * call, `logprobs`) is a 400 naming the field instead of an answer that ignores it.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
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

const UNMET_DEMANDS: Array<{ name: string; field: string; body: Record<string, unknown> }> = [
  { name: 'tool_choice "required"', field: "tool_choice", body: { tool_choice: "required" } },
  {
    name: "tool_choice naming a function",
    field: "tool_choice",
    body: { tool_choice: { type: "function", function: { name: "get_weather" } } },
  },
];

const NO_LOGPROBS: Array<{ name: string; field: string; body: Record<string, unknown> }> = [
  { name: "logprobs true", field: "logprobs", body: { logprobs: true } },
  { name: "top_logprobs 3", field: "top_logprobs", body: { top_logprobs: 3 } },
  {
    name: "logprobs true with top_logprobs 5, streamed",
    field: "logprobs",
    body: { logprobs: true, top_logprobs: 5, stream: true },
  },
];

const TOOLS = [{
  type: "function",
  function: { name: "get_weather", parameters: { type: "object", properties: {} } },
}];

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
          const response = await postChat(app.baseUrl, {
            messages: HI,
            max_tokens: 2,
            frequency_penalty: value,
            presence_penalty: value,
          });
          assert.equal(response.status, 200, await response.clone().text());
          await response.body?.cancel();
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

      await t.step('tool_choice "auto" and "none" are answered with text', async () => {
        for (const choice of ["auto", "none"]) {
          const response = await postChat(app.baseUrl, {
            messages: HI,
            max_tokens: 2,
            tools: TOOLS,
            tool_choice: choice,
          });
          assert.equal(response.status, 200, await response.clone().text());
          await response.body?.cancel();
        }
      });

      for (const row of NO_LOGPROBS) {
        // Answered with `logprobs: null`, a client reading `choices[0].logprobs.content` crashed.
        await t.step(`${row.name} is a 400 naming ${row.field}`, async () => {
          const response = await postChat(app.baseUrl, {
            messages: HI,
            max_tokens: 2,
            ...row.body,
          });
          const body = await assertInferError(response, 400, "invalid_request", row.field);
          assert.match(body.error.message, /log probabilities are not supported/);
        });
      }

      await t.step("the openai client asking for logprobs gets a BadRequestError", async () => {
        const error = await client.chat.completions.create({
          model: "tiny",
          messages: HI,
          max_tokens: 2,
          logprobs: true,
          top_logprobs: 2,
        }).then(() => assert.fail("logprobs were accepted"), (error) => error);
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.equal(error.param, "logprobs");
      });

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
