/**
 * A chat server (or the proxy in front of it, or `tolk infer` with a small
 * `--max-request-bytes`) that refuses a request body as too large, 413: the batch is sent again
 * in halves, as one too long for the context is, over POST /v1/translate.
 */
import assert from "node:assert/strict";
import { engineFailureMessage, translateOk } from "../../support/chat_engine_checks.ts";
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
    const request = {
      target: "en",
      source: "fr",
      texts: ["Bonjour", "Merci"],
      options: { engine: "compatible-api" },
    };
    const body = await translateOk(service, request);
    assert.deepEqual(body.results.map((result) => result.text), ["Hello", "Thank you"]);
    assert.deepEqual(itemCounts(backend.chats), [2, 1, 1]);
  });
});

Deno.test("POST /v1/translate through engine-one sends a batch the runner's proxy refuses with 413 again in halves", async () => {
  const script = [{ status: 413, error: "http: request body too large" }];
  await withStandInService({ script }, async (service, runner) => {
    const request = {
      target: "en",
      source: "de",
      texts: ["Guten Tag", "Hallo Welt"],
      options: { engine: "engine-one" },
    };
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
    const request = {
      target: "en",
      source: "fr",
      texts: ["Bonjour"],
      options: { engine: "compatible-api" },
    };
    const message = await engineFailureMessage(service, request);
    assert.match(
      message,
      /^compatible-api failed: a text of 7 characters is too long for model stand-in .*request body over 65536 bytes/,
    );
    assert.equal(backend.chats.length, 1);
  });
});
