import assert from "node:assert/strict";
import { errorFromIssues } from "../../errors/inference_errors.ts";
import { ChatCompletionRequestSchema } from "../../schemas/openai.ts";

const MESSAGES = [{ role: "user", content: "hi" }];

const REFUSED: Array<{ name: string; body: unknown; param: string | null }> = [
  { name: "empty messages", body: { messages: [] }, param: "messages" },
  { name: "missing messages", body: {}, param: "messages" },
  {
    name: "temperature above 2",
    body: { messages: MESSAGES, temperature: 2.5 },
    param: "temperature",
  },
  {
    name: "negative temperature",
    body: { messages: MESSAGES, temperature: -1 },
    param: "temperature",
  },
  { name: "top_p above 1", body: { messages: MESSAGES, top_p: 1.5 }, param: "top_p" },
  { name: "max_tokens 0", body: { messages: MESSAGES, max_tokens: 0 }, param: "max_tokens" },
  {
    name: "fractional max_tokens",
    body: { messages: MESSAGES, max_tokens: 1.5 },
    param: "max_tokens",
  },
  {
    name: "five stop strings",
    body: { messages: MESSAGES, stop: ["a", "b", "c", "d", "e"] },
    param: "stop",
  },
  { name: "fractional seed", body: { messages: MESSAGES, seed: 1.5 }, param: "seed" },
  { name: "n = 2", body: { messages: MESSAGES, n: 2 }, param: "n" },
  { name: "a string stream flag", body: { messages: MESSAGES, stream: "yes" }, param: "stream" },
  {
    name: "an image content part",
    body: { messages: [{ role: "user", content: [{ type: "image_url", image_url: {} }] }] },
    param: "messages[0].content",
  },
  {
    name: "an unknown role",
    body: { messages: [{ role: "robot", content: "x" }] },
    param: "messages[0].role",
  },
  {
    name: "an unknown response_format type",
    body: { messages: MESSAGES, response_format: { type: "xml" } },
    param: "response_format.type",
  },
  {
    name: "function_call naming a function",
    body: { messages: MESSAGES, function_call: { name: "f" } },
    param: "function_call",
  },
  {
    name: "stream_options without stream",
    body: { messages: MESSAGES, stream_options: { include_usage: true } },
    param: "stream_options",
  },
  {
    name: "stream_options with stream false",
    body: { messages: MESSAGES, stream: false, stream_options: {} },
    param: "stream_options",
  },
];

for (const { name, body, param } of REFUSED) {
  Deno.test(`chat request schema refuses ${name} (param ${param})`, () => {
    const parsed = ChatCompletionRequestSchema.safeParse(body);
    assert.equal(parsed.success, false);
    const error = errorFromIssues(parsed.error!.issues);
    assert.equal(error.code, "invalid_request");
    assert.equal(error.status, 400);
    assert.equal(error.param, param);
  });
}

const ACCEPTED: Array<{ name: string; body: unknown }> = [
  {
    name: "unknown fields",
    body: { messages: MESSAGES, logit_bias: {}, user: "u", tools: [] },
  },
  { name: "temperature 0 and 2", body: { messages: MESSAGES, temperature: 2, top_p: 0 } },
  {
    name: "n = 1 and four stop strings",
    body: { messages: MESSAGES, n: 1, stop: ["a", "b", "c", "d"] },
  },
  {
    name: "null optional fields",
    body: { messages: MESSAGES, max_tokens: null, stop: null, seed: null },
  },
  {
    name: "stream_options with stream true",
    body: { messages: MESSAGES, stream: true, stream_options: { include_usage: true } },
  },
  { name: "stream_options null", body: { messages: MESSAGES, stream_options: null } },
  {
    name: "text parts",
    body: { messages: [{ role: "user", content: [{ type: "text", text: "x" }] }] },
  },
];

for (const { name, body } of ACCEPTED) {
  Deno.test(`chat request schema accepts ${name}`, () => {
    assert.equal(ChatCompletionRequestSchema.safeParse(body).success, true);
  });
}
