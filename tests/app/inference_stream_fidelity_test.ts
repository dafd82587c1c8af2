/**
 * Streaming as the official `openai` client meets it, against a real `tolk infer` daemon on the
 * tiny random-weight fixture: `stream_options` only with `stream`, the finish chunk's `logprobs`,
 * and a stop sequence spanning several tokens held back while it may still complete.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { ChatCompletionChunkSchema } from "../../schemas/openai.ts";
import { startInferDaemon } from "../support/infer_daemon.ts";
import { assertInferError, HI, postChat } from "../support/infer_requests.ts";

/** A greedy 16-token request: the same answer every time. */
const GREEDY = {
  model: "tiny",
  messages: [{ role: "user" as const, content: "Say something long." }],
  max_tokens: 16,
  temperature: 0,
};

/** A stop sequence never in the tiny model's answers (its vocabulary has no snowman). */
const NEVER = "\u2603";

Deno.test("tolk infer: streaming fidelity with the openai client", async (t) => {
  const daemon = await startInferDaemon();
  const client = new OpenAI({ baseURL: `${daemon.baseUrl}/v1`, apiKey: "unused", maxRetries: 0 });
  /** Streams `request`; resolves to the chunks, checked against the contract schema. */
  const streamed = async (request: Partial<OpenAI.Chat.ChatCompletionCreateParamsStreaming>) => {
    const stream = await client.chat.completions.create({ ...GREEDY, ...request, stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(ChatCompletionChunkSchema.parse(chunk));
    return chunks;
  };
  const textOf = (chunks: Awaited<ReturnType<typeof streamed>>) =>
    chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
  try {
    // OpenAI answers 400 "The 'stream_options' parameter is only allowed when 'stream' is
    // enabled." (param stream_options); it was accepted and ignored.
    for (const stream of [false, undefined]) {
      await t.step(`stream_options with stream ${stream} is a 400 naming it`, async () => {
        const error = await client.chat.completions.create({
          ...GREEDY,
          max_tokens: 2,
          stream,
          stream_options: { include_usage: true },
        }).then(() => assert.fail("stream_options without stream was answered"), (e) => e);
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.equal(error.param, "stream_options");
        assert.equal(error.code, "invalid_request");
        assert.equal(error.type, "invalid_request_error");
        assert.match(error.message, /only allowed when stream is true/);
      });
    }

    await t.step("stream_options null without stream is answered", async () => {
      const response = await postChat(daemon.baseUrl, {
        messages: HI,
        max_tokens: 2,
        stream_options: null,
      });
      assert.equal(response.status, 200, await response.clone().text());
      await response.body?.cancel();
    });

    await t.step(
      "stream_options with stream true is still answered with a usage chunk",
      async () => {
        const chunks = await streamed({ stream_options: { include_usage: true } });
        assert.equal(chunks.at(-1)!.usage?.completion_tokens, 16);
      },
    );

    // OpenAI and llama-server send `logprobs: null` on the finish chunk once every token's went
    // with its text; `{content: []}` was sent, which a client reading it as "the rest" mislabels.
    await t.step("the finish chunk of a logprobs stream carries logprobs null", async () => {
      const chunks = await streamed({ logprobs: true, top_logprobs: 1 });
      const finish = chunks.filter((chunk) => chunk.choices[0]?.finish_reason);
      assert.equal(finish.length, 1);
      assert.deepEqual(finish[0].choices[0].delta, {});
      assert.equal(finish[0].choices[0].logprobs, null);
      const tokens = chunks.flatMap((chunk) => chunk.choices[0]?.logprobs?.content ?? []);
      assert.equal(tokens.length, 16, "every token's logprobs went with its text");
    });

    /** The greedy answer's tokens' texts (ASCII-only tokens, so text and bytes agree). */
    const tokens = (await client.chat.completions.create({ ...GREEDY, logprobs: true }))
      .choices[0].logprobs!.content!.map((entry) => entry.token);
    const answer = tokens.join("");
    /** Where three ASCII tokens in a row, each with text, start: a stop spanning them. */
    const spans = tokens.slice(0, -2).flatMap((_, k) =>
      tokens.slice(k, k + 3).every((token) => /^[\x20-\x7e]+$/.test(token)) ? [k] : []
    );
    assert.ok(spans.length > 0, JSON.stringify(tokens));

    await t.step("a stop over three tokens: nothing of it reaches the stream", async () => {
      for (const k of spans) {
        const stop = tokens.slice(k, k + 3).join("");
        const expected = answer.slice(0, answer.indexOf(stop));
        const chunks = await streamed({ stop });
        const label = `stop ${JSON.stringify(stop)} at token ${k}`;
        assert.equal(textOf(chunks), expected, label);
        assert.equal(chunks.at(-1)!.choices[0].finish_reason, "stop", label);
      }
    });

    await t.step("a stop whose first two tokens come but not its end: all is sent", async () => {
      for (const k of spans) {
        const stop = tokens.slice(k, k + 2).join("") + NEVER;
        const chunks = await streamed({ stop, logprobs: true });
        const label = `stop ${JSON.stringify(stop)} at token ${k}`;
        assert.equal(textOf(chunks), answer, label);
        assert.equal(chunks.at(-1)!.choices[0].finish_reason, "length", label);
        // The held tokens' logprobs went out with their text, when it was released.
        const sent = chunks.flatMap((chunk) => chunk.choices[0]?.logprobs?.content ?? []);
        assert.deepEqual(sent.map((entry) => entry.token), tokens, label);
        assert.equal(chunks.at(-1)!.choices[0].logprobs, null, label);
      }
    });

    // The answer ends (its grammar is complete) while the start of a stop is held back.
    await t.step("a stop's start held back when the grammar completes is sent", async () => {
      const chunks = await streamed({
        stop: [`c"${NEVER}`],
        response_format: {
          type: "json_schema",
          json_schema: { name: "word", schema: { enum: ["abc"] } },
        },
      });
      assert.equal(textOf(chunks), '"abc"');
      assert.equal(chunks.at(-1)!.choices[0].finish_reason, "stop");
    });

    await t.step(
      "stream_options {} with stream false is a 400 in the service's shape (raw HTTP)",
      async () => {
        const response = await postChat(daemon.baseUrl, {
          messages: HI,
          stream: false,
          stream_options: {},
        });
        await assertInferError(response, 400, "invalid_request", "stream_options");
      },
    );
  } finally {
    await daemon.stop();
  }
});
