/**
 * compatible-api against servers that answer in ways the protocol allows but rarely sees: no
 * choice at all, an answer cut at the token limit every time, an error in a 200 body that says
 * what a non-2xx one would (the model is not loaded, the text is too long for the context).
 */
import assert from "node:assert/strict";
import { expectError } from "../../support/http_assertions.ts";
import {
  COMPATIBLE,
  engineFailureMessage,
  postTranslate,
  translateOk,
} from "../../support/chat_engine_checks.ts";
import { chatCompletion } from "../../support/chat_completions_stand_in.ts";
import { withChatCompletionsService } from "../../support/chat_completions_service.ts";

const ok = (body: unknown) => ({ status: 200, body });

Deno.test("POST /v1/translate through compatible-api says a server answered no choice (choices: [])", async () => {
  const empty = ok({ object: "chat.completion", model: "stand-in", choices: [] });
  await withChatCompletionsService({ completions: [empty, empty, empty] }, async (service) => {
    const message = await engineFailureMessage(service, { ...COMPATIBLE, texts: ["Bonjour"] });
    assert.match(message, /^compatible-api failed: .*no choice/);
  });
});

Deno.test("POST /v1/translate through compatible-api says a text's answer was cut at the token limit every time", async () => {
  const cut = chatCompletion({ content: '{"1": "Hel' }, "length");
  await withChatCompletionsService({ completions: [cut, cut, cut] }, async (service, backend) => {
    const message = await engineFailureMessage(service, { ...COMPATIBLE, texts: ["Bonjour"] });
    assert.match(message, /id 1: .*cut at the token limit/);
    assert.equal(backend.chats.length, 3);
  });
});

Deno.test("POST /v1/translate through compatible-api is 503 for a 200 body saying the model is not loaded", async () => {
  const unloaded = ok({ error: { message: "No models loaded. Please load a model first." } });
  await withChatCompletionsService({ completions: [unloaded] }, async (service, backend) => {
    const error = await expectError(
      await postTranslate(service, { ...COMPATIBLE, texts: ["Bonjour"] }),
      503,
      "engine_unavailable",
    );
    assert.match(error.error.message, /No models loaded/);
    assert.equal(backend.chats.length, 1);
  });
});

Deno.test("POST /v1/translate through compatible-api splits a batch a 200 error body says is too long for the context", async () => {
  const tooLong = ok({
    error: {
      message: "This model's maximum context length is 4096 tokens. However, you requested " +
        "5000 tokens. Please reduce the length of the messages.",
      code: "context_length_exceeded",
    },
  });
  const completions = [tooLong, '{"1": "Hello"}', '{"2": "Thank you"}'];
  await withChatCompletionsService({ completions }, async (service, backend) => {
    const result = await translateOk(service, { ...COMPATIBLE, texts: ["Bonjour", "Merci"] });
    assert.deepEqual(result.results.map((item) => item.text), ["Hello", "Thank you"]);
    assert.equal(backend.chats.length, 3);
  });
});
