import assert from "node:assert/strict";
import {
  completionBody,
  contentChunk,
  finishChunk,
  finishReasonOf,
  modelEntry,
  roleChunk,
  sseFrame,
  toGenerationParams,
  usageChunk,
} from "../../inference/openai_adapter.ts";
import type { GenerationResult, StopReason } from "../../inference/generation.ts";
import {
  ChatCompletionChunkSchema,
  type ChatCompletionRequest,
  ChatCompletionSchema,
  OpenAiModelSchema,
} from "../../schemas/openai.ts";

const USER = { role: "user" as const, content: "hi" };
const META = { id: "chatcmpl-1", created: 1_700_000_000, model: "tiny" };
const RESULT: GenerationResult = {
  text: "hello",
  stopReason: "endOfTurn",
  promptTokens: 7,
  completionTokens: 3,
};

function request(fields: Partial<ChatCompletionRequest>): ChatCompletionRequest {
  return { messages: [USER], ...fields } as ChatCompletionRequest;
}

const PARAM_CASES: Array<{
  name: string;
  request: ChatCompletionRequest;
  expect: Partial<ReturnType<typeof toGenerationParams>>;
}> = [
  {
    name: "defaults follow the OpenAI API: temperature 1, top_p 1, no token cap, no stop",
    request: request({}),
    expect: { temperature: 1, topP: 1, maxTokens: undefined, stop: [], seed: undefined },
  },
  {
    name: "max_tokens caps the output",
    request: request({ max_tokens: 12 }),
    expect: { maxTokens: 12 },
  },
  {
    name: "max_completion_tokens wins over max_tokens",
    request: request({ max_tokens: 12, max_completion_tokens: 5 }),
    expect: { maxTokens: 5 },
  },
  {
    name: "a single stop string becomes a list",
    request: request({ stop: "END" }),
    expect: { stop: ["END"] },
  },
  {
    name: "empty stop strings are dropped",
    request: request({ stop: ["a", ""] }),
    expect: { stop: ["a"] },
  },
  {
    name: "sampling fields pass through",
    request: request({ temperature: 0, top_p: 0.5, seed: 42 }),
    expect: { temperature: 0, topP: 0.5, seed: 42 },
  },
  {
    name: "roles map to system, user and assistant; text parts are joined as lines",
    request: request({
      messages: [
        { role: "developer", content: "be brief" },
        { role: "system", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] },
        { role: "user", content: "q" },
        { role: "assistant", content: null },
        { role: "tool", content: "result" },
        { role: "function", content: "42" },
      ],
    }),
    expect: {
      turns: [
        { role: "system", text: "be brief" },
        { role: "system", text: "a\nb" },
        { role: "user", text: "q" },
        { role: "assistant", text: "" },
        { role: "user", text: "result" },
        { role: "user", text: "42" },
      ],
    },
  },
  {
    name: "no response_format is free text",
    request: request({}),
    expect: { format: { kind: "text" } },
  },
  {
    name: "json_object is any JSON under a grammar",
    request: request({ response_format: { type: "json_object" } }),
    expect: { format: { kind: "json" } },
  },
  {
    name: "json_schema without a schema is any JSON",
    request: request({ response_format: { type: "json_schema", json_schema: { name: "x" } } }),
    expect: { format: { kind: "json" } },
  },
  {
    name: "json_schema keeps the schema for the grammar",
    request: request({
      response_format: {
        type: "json_schema",
        json_schema: {
          name: "t",
          strict: true,
          schema: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        },
      },
    }),
    expect: {
      format: {
        kind: "json_schema",
        schema: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
      },
    },
  },
];

for (const { name, request, expect } of PARAM_CASES) {
  Deno.test(`toGenerationParams: ${name}`, () => {
    const params = toGenerationParams(request);
    for (const [key, value] of Object.entries(expect)) {
      assert.deepEqual(params[key as keyof typeof params], value, key);
    }
  });
}

const FINISH_CASES: Array<[StopReason, "stop" | "length"]> = [
  ["endOfTurn", "stop"],
  ["stopSequence", "stop"],
  ["maxTokens", "length"],
];

for (const [reason, finish] of FINISH_CASES) {
  Deno.test(`finishReasonOf maps ${reason} to ${finish}`, () => {
    assert.equal(finishReasonOf(reason), finish);
  });
}

Deno.test("completionBody is a valid chat.completion with real usage", () => {
  const body = ChatCompletionSchema.parse(completionBody(META, RESULT));
  assert.equal(body.choices[0].message.content, "hello");
  assert.equal(body.choices[0].finish_reason, "stop");
  assert.deepEqual(body.usage, { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
});

Deno.test("stream chunks: role first, content, finish last; usage null only with include_usage", () => {
  const chunks = [
    roleChunk(META),
    contentChunk(META, "he"),
    finishChunk(META, { stopReason: "maxTokens" }),
  ].map((chunk) => ChatCompletionChunkSchema.parse(chunk));
  assert.equal(chunks[0].choices[0].delta.role, "assistant");
  assert.equal(chunks[1].choices[0].delta.content, "he");
  assert.equal(chunks[2].choices[0].finish_reason, "length");
  assert.ok(chunks.every((chunk) => !("usage" in chunk)));
  assert.equal(contentChunk(META, "x", { includeUsage: true }).usage, null);
});

Deno.test("usageChunk has no choices and the token counts", () => {
  const chunk = ChatCompletionChunkSchema.parse(usageChunk(META, RESULT));
  assert.deepEqual(chunk.choices, []);
  assert.equal(chunk.usage?.total_tokens, 10);
});

Deno.test("sseFrame frames JSON and the [DONE] marker as data events", () => {
  assert.equal(sseFrame({ a: 1 }), 'data: {"a":1}\n\n');
  assert.equal(sseFrame("[DONE]"), "data: [DONE]\n\n");
});

Deno.test("modelEntry is a gguf model owned by local", () => {
  const model = OpenAiModelSchema.parse(modelEntry({ modelId: "tiny", modelStatus: "valid" }));
  assert.deepEqual(model, {
    id: "tiny",
    object: "model",
    owned_by: "local",
    format: "gguf",
    status: "valid",
  });
});
