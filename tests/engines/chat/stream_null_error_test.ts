/**
 * Streamed answers whose every chunk carries `"error": null`, as Microsoft's Foundry Local (a
 * loopback OpenAI-compatible server) writes them beside its other envelope fields: a null error
 * is no error, and the chunks are the answer (they were read as an error event, and the answer
 * as holding no message content).
 */
import assert from "node:assert/strict";
import { COMPATIBLE, ENGINE_ONE, translateOk } from "../../support/chat_engine_checks.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { withChatCompletionsService } from "../../support/chat_completions_service.ts";

/** Foundry Local's chunk: the text in both `delta` and `message`, and `error: null`. */
function foundryChunk(content: string | null, finishReason: string | null): string {
  const message = { role: "assistant", content, name: null, tool_call_id: null, tool_calls: [] };
  const chunk = {
    model: "qwen2.5-1.5b-instruct-generic-gpu:3",
    choices: [{
      delta: message,
      message,
      index: 0,
      finish_reason: finishReason,
      logprobs: null,
    }],
    usage: null,
    created: 1_800_000_000,
    id: "chat.id.1",
    Successful: true,
    error: null,
    HttpStatusCode: 0,
    object: "chat.completion.chunk",
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

Deno.test("POST /v1/translate through compatible-api reads SSE chunks that each say error: null", async () => {
  const body = foundryChunk('{"1": "Hel', null) + foundryChunk('lo"}', null) +
    foundryChunk(null, "stop") + "data: [DONE]\n\n";
  const reply = { status: 200, body, headers: { "content-type": "text/event-stream" } };
  await withChatCompletionsService({ completions: [reply] }, async (service, backend) => {
    const result = await translateOk(service, { ...COMPATIBLE, texts: ["Bonjour"] });
    assert.equal(result.results[0].text, "Hello");
    assert.equal(backend.chats.length, 1);
  });
});

Deno.test("POST /v1/translate through engine-one reads NDJSON lines that each say error: null", async () => {
  const line = (content: string, done: boolean) =>
    JSON.stringify({
      model: "tolk-test:latest",
      message: { role: "assistant", content },
      done,
      ...(done ? { done_reason: "stop" } : {}),
      error: null,
    }) + "\n";
  const body = line('{"1": "Good', false) + line(' day"}', false) + line("", true);
  const script = [{ body, contentType: "application/x-ndjson" }];
  await withStandInService({ script }, async (service, runner) => {
    const result = await translateOk(service, { ...ENGINE_ONE, texts: ["Guten Tag"] });
    assert.equal(result.results[0].text, "Good day");
    assert.equal(runner.chats.length, 1);
  });
});
