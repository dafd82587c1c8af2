/**
 * A thinking model's reasoning is read as its answer only when it is the answer: the JSON on its
 * own (vLLM's DeepSeek-R1 parser puts the whole output there when the model never writes
 * `</think>`; Ollama may route format-bound JSON into `thinking`). Reasoning in words that
 * quotes a draft (`{"1": "Good morning"}? No, …`) is no answer, however well the draft parses:
 * the request is asked again, and the draft never reaches the client.
 */
import assert from "node:assert/strict";
import { COMPATIBLE, ENGINE_ONE, translateOk } from "../../support/chat_engine_checks.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { withChatCompletionsService } from "../../support/chat_completions_service.ts";
import { chatCompletion } from "../../support/chat_completions_stand_in.ts";

/** Reasoning that drafts the JSON answer and is cut before it settles on one. */
const DRAFTING = 'The user wants this in English. A first try: {"1": "Good morning"}. ' +
  'But "Bonjour" at any hour is closer to';

for (const finish of ["stop", "length"]) {
  Deno.test(`POST /v1/translate never answers a draft quoted in reasoning_content (content null, finish_reason ${finish})`, async () => {
    const answers = [
      chatCompletion({ content: null, reasoning_content: DRAFTING }, finish),
      chatCompletion({ content: '{"1": "Hello"}' }),
    ];
    await withChatCompletionsService({ completions: answers }, async (service, backend) => {
      const body = await translateOk(service, { ...COMPATIBLE, texts: ["Bonjour"] });
      assert.equal(body.results[0].text, "Hello");
      assert.equal(backend.chats.length, 2);
    });
  });

  Deno.test(`POST /v1/translate through engine-one never answers a draft quoted in message.thinking (done_reason ${finish})`, async () => {
    const drafting = JSON.stringify({
      model: "tolk-test:latest",
      message: { role: "assistant", content: "", thinking: DRAFTING },
      done: true,
      done_reason: finish,
    });
    const script = [
      { body: drafting, contentType: "application/json" },
      { content: '{"1": "Good day"}' },
    ];
    await withStandInService({ script }, async (service, runner) => {
      const body = await translateOk(service, { ...ENGINE_ONE, texts: ["Guten Tag"] });
      assert.equal(body.results[0].text, "Good day");
      assert.equal(runner.chats.length, 2);
    });
  });
}

Deno.test("POST /v1/translate reads reasoning_content that is the JSON answer in a code fence", async () => {
  const fenced = chatCompletion({
    content: null,
    reasoning_content: '```json\n{"1": "Hello"}\n```',
  });
  await withChatCompletionsService({ completions: [fenced] }, async (service, backend) => {
    const body = await translateOk(service, { ...COMPATIBLE, texts: ["Bonjour"] });
    assert.equal(body.results[0].text, "Hello");
    assert.equal(backend.chats.length, 1);
  });
});
