/**
 * A chat server that refuses a request as too big, over POST /v1/translate: a body too large
 * (413, from the server, a proxy in front of it, or `tolk infer` with a small
 * `--max-request-bytes`), or too long for the context in the words of a server whose error
 * shape is its own. The batch is sent again in halves.
 */
import assert from "node:assert/strict";
import {
  COMPATIBLE,
  ENGINE_ONE,
  engineFailureMessage,
  translateOk,
} from "../../support/chat_engine_checks.ts";
import { withChatCompletionsService } from "../../support/chat_completions_service.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { standInTranslation } from "../../support/ollama_stand_in.ts";

const TOO_LARGE = {
  status: 413,
  body: { error: { message: "request body over 65536 bytes", code: "request_too_large" } },
};

/** How many items each chat request carried. */
function itemCounts(chats: Record<string, unknown>[]): number[] {
  return chats.map((chat) => {
    const messages = chat.messages as { content: string }[];
    return JSON.parse(messages.at(-1)!.content).items.length;
  });
}

Deno.test("POST /v1/translate through compatible-api sends a batch the server refuses with 413 again in halves", async () => {
  const completions = [TOO_LARGE, '{"1": "Hello"}', '{"2": "Thank you"}'];
  await withChatCompletionsService({ completions }, async (service, backend) => {
    const request = { ...COMPATIBLE, texts: ["Bonjour", "Merci"] };
    const body = await translateOk(service, request);
    assert.deepEqual(body.results.map((result) => result.text), ["Hello", "Thank you"]);
    assert.deepEqual(itemCounts(backend.chats), [2, 1, 1]);
  });
});

Deno.test("POST /v1/translate through engine-one sends a batch the runner's proxy refuses with 413 again in halves", async () => {
  const script = [{ status: 413, error: "http: request body too large" }];
  await withStandInService({ script }, async (service, runner) => {
    const request = { ...ENGINE_ONE, texts: ["Guten Tag", "Hallo Welt"] };
    const body = await translateOk(service, request);
    assert.deepEqual(
      body.results.map((result) => result.text),
      ["Guten Tag", "Hallo Welt"].map(standInTranslation),
    );
    assert.deepEqual(itemCounts(runner.chats), [2, 1, 1]);
  });
});

Deno.test("POST /v1/translate says a single text the server refuses with 413 is too large for it: 500, asked once", async () => {
  await withChatCompletionsService({ completions: [TOO_LARGE] }, async (service, backend) => {
    const request = { ...COMPATIBLE, texts: ["Bonjour"] };
    const message = await engineFailureMessage(service, request);
    assert.match(
      message,
      /^compatible-api failed: a text of 7 characters is too long for model stand-in .*request body over 65536 bytes/,
    );
    assert.equal(backend.chats.length, 1);
  });
});

/** vLLM's error body (before its OpenAI-shaped `{error: {…}}`): the words at the top level. */
const VLLM_TOO_LONG = {
  status: 400,
  body: {
    object: "error",
    message: "This model's maximum context length is 2048 tokens. However, you requested 3237 " +
      "tokens (1294 in the messages, 1943 in the completion). Please reduce the length of the " +
      "messages or completion.",
    type: "BadRequestError",
    param: null,
    code: 400,
  },
};

Deno.test("POST /v1/translate reads vLLM's top-level error words: a batch too long for its context is sent again in halves", async () => {
  const completions = [VLLM_TOO_LONG, '{"1": "Hello"}', '{"2": "Thank you"}'];
  await withChatCompletionsService({ completions }, async (service, backend) => {
    const request = { ...COMPATIBLE, texts: ["Bonjour", "Merci"] };
    const body = await translateOk(service, request);
    assert.deepEqual(body.results.map((result) => result.text), ["Hello", "Thank you"]);
    assert.deepEqual(itemCounts(backend.chats), [2, 1, 1]);
  });
});

Deno.test("POST /v1/translate quotes the words of a FastAPI server's error (detail)", async () => {
  const failure = { status: 400, body: { detail: "Unsupported response_format for this model" } };
  await withChatCompletionsService({ completions: [failure] }, async (service) => {
    const request = { ...COMPATIBLE, texts: ["Bonjour"] };
    assert.equal(
      await engineFailureMessage(service, request),
      "compatible-api failed: the backend answered HTTP 400: " +
        "Unsupported response_format for this model",
    );
  });
});
