/**
 * Edges of the chat API as a client meets them, against a real `tolk infer` daemon: seeds at
 * the ends of llama.cpp's 32-bit range, temperatures near 0, text parts, and which turns
 * may go without text.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { startInferDaemon } from "../support/infer_daemon.ts";
import { HI } from "../support/infer_requests.ts";

Deno.test("tolk infer: chat API edges as the openai client meets them", async (t) => {
  const daemon = await startInferDaemon();
  const client = new OpenAI({ baseURL: `${daemon.baseUrl}/v1`, apiKey: "unused", maxRetries: 0 });
  /** The text of a 12-token answer drawn at temperature 1. */
  const draw = async (seed: number) => {
    const completion = await client.chat.completions.create({
      model: "tiny",
      messages: HI,
      max_tokens: 12,
      temperature: 1,
      seed,
    });
    return completion.choices[0].message.content!;
  };
  try {
    // llama.cpp reads the seed 0xFFFFFFFF as "pick one at random": -1 and 4294967295 reached it.
    for (const seed of [4294967295, -1, 0, 2 ** 53 - 1, -(2 ** 53 - 1)]) {
      await t.step(`seed ${seed} gives the same answer every time`, async () => {
        const answers = [await draw(seed), await draw(seed), await draw(seed)];
        assert.deepEqual(answers, [answers[0], answers[0], answers[0]]);
      });
    }

    await t.step("seeds 2^32 apart draw different answers", async () => {
      // Only the low 32 bits once reached the sampler: 5 and 2^32 + 5 were one seed.
      assert.notEqual(await draw(5), await draw(2 ** 32 + 5));
    });

    await t.step(
      "a stop sequence's start held back at the end is sent, streamed or not",
      async () => {
        for (const seed of [1, 2, 3, 4, 5]) {
          const plain = await draw(seed);
          // The answer ends with the start of the stop: held back in case it completes, then sent.
          const request = {
            model: "tiny",
            messages: HI,
            max_tokens: 12,
            temperature: 1,
            seed,
            stop: [`${plain.slice(-2)}\u2603`],
          };
          const whole = await client.chat.completions.create(request);
          assert.equal(whole.choices[0].message.content, plain, `seed ${seed}`);
          let streamed = "";
          const chunks = await client.chat.completions.create({ ...request, stream: true });
          for await (const chunk of chunks) streamed += chunk.choices[0]?.delta.content ?? "";
          assert.equal(streamed, plain, `seed ${seed}`);
        }
      },
    );

    await t.step("a temperature too small for float32 logits is greedy, not garbage", async () => {
      const at = async (temperature: number) =>
        (await client.chat.completions.create({
          model: "tiny",
          messages: HI,
          max_tokens: 12,
          temperature,
          seed: 1,
        })).choices[0].message.content;
      const greedy = await at(0);
      // Logits divided by 1e-40 overflow to infinity: the draw then ignored the logits.
      for (const temperature of [1e-6, 1e-30, 1e-40, 1e-45, 5e-324]) {
        assert.equal(await at(temperature), greedy, `temperature ${temperature}`);
      }
    });

    await t.step(
      "text parts of one message are read as lines, as llama-server joins them",
      async () => {
        const promptTokens = async (content: OpenAI.ChatCompletionUserMessageParam["content"]) =>
          (await client.chat.completions.create({
            model: "tiny",
            max_tokens: 1,
            messages: [{ role: "user", content }],
          })).usage!.prompt_tokens;
        // Joined with nothing, the parts ran together ("Translate this:Hello world").
        const parts = await promptTokens([
          { type: "text", text: "Translate this:" },
          { type: "text", text: "Hello world" },
        ]);
        assert.equal(parts, await promptTokens("Translate this:\nHello world"));
        assert.notEqual(parts, await promptTokens("Translate this:Hello world"));
      },
    );

    for (const role of ["user", "system", "developer", "tool"]) {
      await t.step(`a ${role} turn with content null is a 400 naming the content`, async () => {
        const messages = [
          ...HI,
          { role, content: null, tool_call_id: "call_1" },
        ] as unknown as OpenAI.ChatCompletionMessageParam[];
        const error = await client.chat.completions.create({ model: "tiny", messages })
          .then(() => assert.fail("a null content was accepted"), (error) => error);
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.equal(error.code, "invalid_request");
        assert.equal(error.param, "messages[1].content");
      });
    }

    await t.step("an assistant turn with content null is answered", async () => {
      const completion = await client.chat.completions.create({
        model: "tiny",
        max_tokens: 1,
        messages: [...HI, { role: "assistant", content: null }, ...HI],
      });
      assert.equal(completion.usage?.completion_tokens, 1);
    });

    // openai's deprecated function calling answers a `function_call` with a "function" turn; a
    // client replaying such a conversation was refused (messages[2].role).
    await t.step("a deprecated function turn is read as a tool turn is", async () => {
      const promptTokens = async (result: OpenAI.ChatCompletionMessageParam) =>
        (await client.chat.completions.create({
          model: "tiny",
          max_tokens: 1,
          messages: [
            ...HI,
            { role: "assistant", content: null, function_call: { name: "f", arguments: "{}" } },
            result,
          ],
        })).usage!.prompt_tokens;
      assert.equal(
        await promptTokens({ role: "function", name: "f", content: "42" }),
        await promptTokens({ role: "tool", tool_call_id: "call_1", content: "42" }),
      );
    });
  } finally {
    assert.equal(await daemon.stop(), 0);
  }
});
