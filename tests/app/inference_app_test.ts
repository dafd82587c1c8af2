/**
 * A real `tolk infer` daemon with default flags, driven over HTTP by the official `openai`
 * client and by raw fetch (SSE framing); what it refuses is in inference_refusals_test.ts.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { z } from "zod";
import {
  ChatCompletionChunkSchema,
  ChatCompletionSchema,
  ErrorBodySchema,
  HealthSchema,
  ModelListSchema,
  OpenAiModelSchema,
  StatusSchema,
} from "../../schemas/openai.ts";
import { startInferDaemon } from "../support/infer_daemon.ts";
import { HI, postChat } from "../support/infer_requests.ts";

/** Reads an SSE body into its `data:` payloads, checking the framing of every event. */
async function readEvents(response: Response): Promise<string[]> {
  const text = await response.text();
  assert.ok(text.endsWith("\n\n"), "the stream ends with a complete event");
  const events = text.slice(0, -2).split("\n\n");
  for (const event of events) assert.match(event, /^data: .+$/, "one data line per event");
  return events.map((event) => event.slice("data: ".length));
}

Deno.test("tolk infer (default flags) over HTTP", async (t) => {
  const daemon = await startInferDaemon();
  const { baseUrl } = daemon;
  const client = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: "unused", maxRetries: 0 });
  try {
    await t.step("GET /health answers 200 ok with the version", async () => {
      const response = await fetch(`${baseUrl}/health`);
      assert.equal(response.status, 200);
      const body = HealthSchema.parse(await response.json());
      assert.equal(body.status, "ok");
      assert.match(body.version, /^\d+\.\d+\.\d+ \(.+\)$/);
      assert.match(response.headers.get("x-request-id")!, /^[0-9a-f-]{36}$/);
    });

    await t.step("GET /v1/status reports llama.cpp on cpu with the path redacted", async () => {
      const body = StatusSchema.parse(await (await fetch(`${baseUrl}/v1/status`)).json());
      assert.equal(body.status, "running");
      assert.equal(body.endpoint, baseUrl);
      assert.deepEqual(body.runtime, {
        runtime: "llama.cpp",
        model_id: "tiny",
        backend: "cpu",
        ready: true,
      });
      assert.equal(body.active_model.path, "<redacted>");
      assert.equal(body.active_model.status, "valid");
      assert.ok(Math.abs(body.started_at - Date.now() / 1000) < 600, "epoch seconds");
    });

    await t.step("GET /v1/models lists the one model (openai client and schema)", async () => {
      const raw = ModelListSchema.parse(await (await fetch(`${baseUrl}/v1/models`)).json());
      assert.equal(raw.data.length, 1);
      const models = await client.models.list();
      assert.deepEqual(models.data.map((model) => model.id), ["tiny"]);
    });

    await t.step(
      "GET /v1/models/{model} retrieves it (openai client); any other id is 404",
      async () => {
        const model = await client.models.retrieve("tiny");
        assert.equal(model.id, "tiny");
        const raw = await (await fetch(`${baseUrl}/v1/models/tiny`)).json();
        const list = ModelListSchema.parse(await (await fetch(`${baseUrl}/v1/models`)).json());
        assert.deepEqual(OpenAiModelSchema.strict().parse(raw), list.data[0]);
        const other = await fetch(`${baseUrl}/v1/models/gpt-4o`);
        assert.equal(other.status, 404);
        const body = ErrorBodySchema.parse(await other.json());
        assert.equal(body.error.code, "not_found");
        assert.equal(body.error.param, "model");
        assert.match(body.error.message, /gpt-4o.*tiny/);
        await assert.rejects(client.models.retrieve("org/other"), OpenAI.NotFoundError);
      },
    );

    let greedyText = "";
    await t.step("openai client: a non-streamed completion counts real tokens", async () => {
      const completion = await client.chat.completions.create({
        model: "tiny",
        messages: HI,
        max_tokens: 8,
        temperature: 0,
      });
      const body = ChatCompletionSchema.parse(completion);
      assert.equal(body.choices[0].finish_reason, "length");
      assert.equal(body.usage.completion_tokens, 8);
      assert.ok(body.usage.prompt_tokens > 3);
      assert.equal(body.usage.total_tokens, body.usage.prompt_tokens + 8);
      assert.equal(body.model, "tiny");
      greedyText = body.choices[0].message.content;
      assert.ok(greedyText.length > 0);
    });

    await t.step("openai client: a streamed completion yields the same greedy text", async () => {
      const stream = await client.chat.completions.create({
        model: "tiny",
        messages: HI,
        max_tokens: 8,
        temperature: 0,
        stream: true,
        stream_options: { include_usage: true },
      });
      const chunks = [];
      for await (const chunk of stream) chunks.push(ChatCompletionChunkSchema.parse(chunk));
      assert.equal(chunks[0].choices[0].delta.role, "assistant");
      const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
      assert.equal(text, greedyText);
      const finishes = chunks.filter((chunk) => chunk.choices[0]?.finish_reason);
      assert.equal(finishes.length, 1);
      assert.equal(finishes[0].choices[0].finish_reason, "length");
      const usage = chunks.at(-1)!;
      assert.deepEqual(usage.choices, []);
      assert.equal(usage.usage?.completion_tokens, 8);
    });

    await t.step("a stop sequence ends the output before it with finish_reason stop", async () => {
      const stop = greedyText.slice(2, 4);
      const completion = await client.chat.completions.create({
        model: "tiny",
        messages: HI,
        max_tokens: 8,
        temperature: 0,
        stop,
      });
      const content = completion.choices[0].message.content!;
      assert.equal(completion.choices[0].finish_reason, "stop");
      assert.ok(greedyText.startsWith(content) && !content.includes(stop), content);
    });

    await t.step(
      "of several stop sequences the earliest in the text ends it, streamed or not",
      async () => {
        // A later-listed stop one character before an earlier-listed one: when one word token holds
        // both, cutting at the earlier-listed one left the other in the answer.
        for (let at = 0; at + 3 <= greedyText.length; at++) {
          const stop = [greedyText.slice(at + 1, at + 3), greedyText[at]];
          const expected = greedyText.slice(
            0,
            Math.min(...stop.map((text) => greedyText.indexOf(text))),
          );
          const request = { model: "tiny", messages: HI, max_tokens: 8, temperature: 0, stop };
          const completion = await client.chat.completions.create(request);
          assert.deepEqual(
            [completion.choices[0].message.content, completion.choices[0].finish_reason],
            [expected, "stop"],
            JSON.stringify(stop),
          );
          const chunks = await client.chat.completions.create({ ...request, stream: true });
          let streamed = "";
          for await (const chunk of chunks) streamed += chunk.choices[0]?.delta.content ?? "";
          assert.equal(streamed, expected, JSON.stringify(stop));
        }
      },
    );

    await t.step("response_format json_schema: the content parses and matches", async () => {
      const schema = {
        type: "object",
        properties: {
          ok: { type: "boolean" },
          words: { type: "array", items: { type: "string", maxLength: 4 }, maxItems: 2 },
          kind: { enum: ["a", "b"] },
        },
        required: ["ok", "words", "kind"],
        additionalProperties: false,
      };
      for (const seed of [1, 2, 3]) {
        const completion = await client.chat.completions.create({
          model: "tiny",
          messages: [{ role: "user", content: "Answer in JSON." }],
          max_tokens: 120,
          temperature: 0.7,
          seed,
          response_format: {
            type: "json_schema",
            json_schema: { name: "t", schema, strict: true },
          },
        });
        assert.equal(completion.choices[0].finish_reason, "stop");
        const value = JSON.parse(completion.choices[0].message.content!);
        z.fromJSONSchema(schema as never).parse(value);
      }
    });

    await t.step(
      "response_format json_schema: the answer ends with its JSON, streamed or not",
      async () => {
        // node-llama-cpp's schema grammars end in four or more newlines, its cue to stop; they
        // are no part of the answer (OpenAI's JSON ends with its closing brace).
        const request = {
          model: "tiny",
          messages: [{ role: "user" as const, content: "Answer in JSON." }],
          max_tokens: 60,
          temperature: 0,
          response_format: {
            type: "json_schema" as const,
            json_schema: {
              name: "t",
              strict: true,
              schema: {
                type: "object",
                properties: { kind: { enum: ["a", "b"] }, ok: { type: "boolean" } },
                required: ["kind", "ok"],
                additionalProperties: false,
              },
            },
          },
        };
        const completion = await client.chat.completions.create(request);
        const content = completion.choices[0].message.content!;
        assert.equal(completion.choices[0].finish_reason, "stop");
        assert.match(content, /\}$/, JSON.stringify(content));
        JSON.parse(content);
        const streamed = await client.chat.completions.stream(request).finalChatCompletion();
        assert.equal(streamed.choices[0].message.content, content);
        assert.equal(streamed.choices[0].finish_reason, "stop");
      },
    );

    await t.step("response_format json_object: the content is a JSON object", async () => {
      const completion = await client.chat.completions.create({
        model: "tiny",
        messages: HI,
        max_tokens: 120,
        temperature: 0.7,
        seed: 6, // a seed whose random-model object closes within max_tokens (llama.cpp sampler)
        response_format: { type: "json_object" },
      });
      assert.equal(completion.choices[0].finish_reason, "stop");
      const value = JSON.parse(completion.choices[0].message.content!);
      assert.equal(typeof value, "object");
      assert.ok(Object.keys(value).length > 0);
    });

    await t.step("raw SSE: data events, finish chunk, usage chunk, data: [DONE]", async () => {
      const response = await postChat(
        baseUrl,
        JSON.stringify({
          messages: HI,
          max_tokens: 4,
          stream: true,
          stream_options: { include_usage: true },
        }),
      );
      assert.equal(response.status, 200);
      assert.match(response.headers.get("content-type")!, /^text\/event-stream/);
      assert.ok(response.headers.get("x-request-id"));
      const events = await readEvents(response);
      assert.equal(events.at(-1), "[DONE]");
      const chunks = events.slice(0, -1).map((e) => ChatCompletionChunkSchema.parse(JSON.parse(e)));
      assert.equal(new Set(chunks.map((chunk) => chunk.id)).size, 1);
      assert.ok(chunks.slice(0, -1).every((chunk) => chunk.usage === null));
      assert.equal(chunks.at(-2)!.choices[0].finish_reason, "length");
      assert.equal(chunks.at(-1)!.usage?.completion_tokens, 4);
    });

    await t.step("raw SSE without include_usage has no usage chunk", async () => {
      const response = await postChat(
        baseUrl,
        JSON.stringify({ messages: HI, max_tokens: 3, stream: true }),
      );
      const events = await readEvents(response);
      assert.equal(events.at(-1), "[DONE]");
      const last = ChatCompletionChunkSchema.parse(JSON.parse(events.at(-2)!));
      assert.equal(last.choices[0].finish_reason, "length");
      assert.equal(last.usage, undefined);
    });

    await t.step("unknown request fields are ignored", async () => {
      const response = await postChat(
        baseUrl,
        JSON.stringify({ messages: HI, max_tokens: 2, metadata: {}, user: "x", tools: [] }),
      );
      assert.equal(response.status, 200);
      ChatCompletionSchema.parse(await response.json());
    });

    await t.step(
      "openai client: an assistant turn with tool_calls and no content is answered",
      async () => {
        // The shape agent loops send back (content is optional on an assistant message with
        // tool_calls); a user turn without content is still refused.
        const completion = await client.chat.completions.create({
          model: "tiny",
          max_tokens: 2,
          messages: [
            { role: "user", content: "What is the weather?" },
            {
              role: "assistant",
              tool_calls: [{
                id: "call_1",
                type: "function",
                function: { name: "weather", arguments: "{}" },
              }],
            },
            { role: "tool", tool_call_id: "call_1", content: "sunny" },
          ],
        });
        ChatCompletionSchema.parse(completion);
        const error = await client.chat.completions.create({
          model: "tiny",
          max_tokens: 2,
          messages: [{ role: "user" } as OpenAI.ChatCompletionMessageParam],
        }).then(() => assert.fail("a user turn without content was accepted"), (error) => error);
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.equal(error.param, "messages[0].content");
        assert.equal(error.code, "invalid_request");
      },
    );

    await t.step(
      "openai client: an assistant turn with a refusal part is answered and counted",
      async () => {
        const history = (content: OpenAI.ChatCompletionAssistantMessageParam["content"]) =>
          client.chat.completions.create({
            model: "tiny",
            max_tokens: 1,
            messages: [
              { role: "user", content: "Tell me a secret." },
              { role: "assistant", content },
              { role: "user", content: "Why not?" },
            ],
          });
        const refused = await history([{ type: "refusal", refusal: "I cannot share that." }]);
        const written = await history("I cannot share that.");
        // The refusal is the assistant's text in the prompt, as the same words written as text.
        assert.equal(refused.usage?.prompt_tokens, written.usage?.prompt_tokens);
      },
    );
  } finally {
    assert.equal(await daemon.stop(), 0);
  }
});
