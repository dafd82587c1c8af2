/**
 * The chat engines behind a proxy that always streams: it answers a `stream: false` request with
 * SSE chunks (chat completions) or NDJSON lines (Ollama), with or without the content type that
 * says so. The engines assemble the message; a body that is neither JSON nor a stream of it is
 * still an engine failure that says what came back.
 */
import assert from "node:assert/strict";
import { expectError } from "../../support/http_assertions.ts";
import {
  COMPATIBLE,
  ENGINE_ONE,
  engineFailureMessage,
  postTranslate,
  translateOk,
  translateOverWebSocket,
} from "../../support/chat_engine_checks.ts";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import type { StandInReply } from "../../support/chat_completions_stand_in.ts";
import { streamEvents } from "../../../engines/chat/streamed_answer.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { withChatCompletionsService } from "../../support/chat_completions_service.ts";

/** `content` cut in pieces of `size` characters: how a model's tokens arrive. */
function pieces(content: string, size = 3): string[] {
  return Array.from(
    { length: Math.ceil(content.length / size) },
    (_, at) => content.slice(at * size, (at + 1) * size),
  );
}

/**
 * An OpenAI-style SSE stream of `content` (role first, finish reason last, then `[DONE]`), in
 * deltas of `size` characters, each chunk carrying `padding` more bytes of envelope.
 */
function sseChunks(content: string, finish = "stop", size = 3, padding = 0): string {
  const chunk = (delta: unknown, finishReason: string | null) =>
    `data: ${
      JSON.stringify({
        id: "chatcmpl-proxy",
        object: "chat.completion.chunk",
        created: 1_800_000_000,
        model: "tiny",
        ...(padding ? { obfuscation: "x".repeat(padding) } : {}),
        choices: [{ index: 0, delta, finish_reason: finishReason }],
      })
    }\n\n`;
  return chunk({ role: "assistant", content: "" }, null) +
    pieces(content, size).map((piece) => chunk({ content: piece }, null)).join("") +
    chunk({}, finish) + "data: [DONE]\n\n";
}

/** An Ollama-style NDJSON stream of `content`, ending with the `done` line. */
function ndjsonLines(content: string, doneReason = "stop"): string {
  const line = (value: unknown) => `${JSON.stringify(value)}\n`;
  const at = "2026-11-29T10:00:00Z";
  return pieces(content).map((piece) =>
    line({
      model: "tolk-test:latest",
      created_at: at,
      message: { role: "assistant", content: piece },
      done: false,
    })
  ).join("") +
    line({
      model: "tolk-test:latest",
      created_at: at,
      message: { role: "assistant", content: "" },
      done: true,
      done_reason: doneReason,
      eval_count: 10,
    });
}

function streamed(body: string, contentType: string): StandInReply {
  return { status: 200, body, headers: { "content-type": contentType } };
}

/** How a streaming proxy labels its answer: as it should, or not at all. */
const LABELS = [
  { name: "labelled text/event-stream", sse: "text/event-stream; charset=utf-8" },
  { name: "labelled application/json", sse: "application/json" },
  { name: "labelled text/plain", sse: "text/plain" },
];

for (const { name, sse } of LABELS) {
  Deno.test(`POST /v1/translate and the WebSocket through compatible-api read an SSE answer to stream: false, ${name}`, async () => {
    const answer = streamed(sseChunks('{"1": "Hello", "2": "Thank you"}'), sse);
    await withChatCompletionsService({ completions: [answer, answer] }, async (service) => {
      const request = { ...COMPATIBLE, texts: ["Bonjour", "Merci"] };
      const body = await translateOk(service, request);
      assert.deepEqual(body.results.map((result) => result.text), ["Hello", "Thank you"]);
      const frame = TranslateResponseSchema.parse(await translateOverWebSocket(service, request));
      assert.deepEqual(frame.results.map((result) => result.text), ["Hello", "Thank you"]);
    });
  });
}

const NDJSON_LABELS = ["application/x-ndjson", "application/json", "text/plain"];

for (const contentType of NDJSON_LABELS) {
  Deno.test(`POST /v1/translate through engine-one reads NDJSON lines answering stream: false, labelled ${contentType}`, async () => {
    const answer = { body: ndjsonLines('{"1": "Good day", "2": "Hello world"}'), contentType };
    await withStandInService({ script: [answer] }, async (service) => {
      const body = await translateOk(service, {
        ...ENGINE_ONE,
        texts: ["Guten Tag", "Hallo Welt"],
      });
      assert.deepEqual(body.results.map((result) => result.text), ["Good day", "Hello world"]);
    });
  });
}

Deno.test("POST /v1/translate through engine-one reads NDJSON lines whose output is all thinking", async () => {
  const thinking = ndjsonLines('{"1": "Good day"}').replaceAll('"content"', '"thinking"')
    .replaceAll('"role":"assistant"', '"role":"assistant","content":""');
  const script = [{ body: thinking, contentType: "application/x-ndjson" }];
  await withStandInService({ script }, async (service, runner) => {
    const body = await translateOk(service, { ...ENGINE_ONE, texts: ["Guten Tag"] });
    assert.equal(body.results[0].text, "Good day");
    assert.equal(runner.chats.length, 1);
  });
});

Deno.test("compatible-api reads a streamed answer cut at the token limit as cut: the batch is split in halves", async () => {
  const answers = [
    streamed(sseChunks('{"1": "Hel', "length"), "text/event-stream"),
    streamed(sseChunks('{"1": "Hello"}'), "text/event-stream"),
    streamed(sseChunks('{"2": "Thank you"}'), "text/event-stream"),
  ];
  await withChatCompletionsService({ completions: answers }, async (service, backend) => {
    const body = await translateOk(service, { ...COMPATIBLE, texts: ["Bonjour", "Merci"] });
    assert.deepEqual(body.results.map((result) => result.text), ["Hello", "Thank you"]);
    const itemCounts = backend.chats.map((chat) => {
      const [, user] = chat.messages as { content: string }[];
      return JSON.parse(user.content).items.length;
    });
    assert.deepEqual(itemCounts, [2, 1, 1]);
  });
});

/** One OpenAI stream chunk whose delta carries `toolCalls` (fragments of calls, by index). */
function toolChunk(toolCalls: unknown[], finishReason: string | null = null): string {
  const delta = { tool_calls: toolCalls };
  return `data: ${
    JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finishReason }] })
  }\n\n`;
}

Deno.test("POST /v1/translate through compatible-api joins a streamed tool call's argument fragments by index, asking once", async () => {
  // OpenAI's stream: the call's id and name first, its arguments in pieces after; a second call
  // (index 1) interleaved, whose pieces must not end up in the first one's JSON.
  const args = pieces('{"1": "Hello", "2": "Thank you"}', 5);
  const body = toolChunk([{
    index: 0,
    id: "call_1",
    type: "function",
    function: { name: "translations", arguments: "" },
  }]) +
    args.map((piece, at) =>
      toolChunk([{ index: 0, function: { arguments: piece } }]) +
      (at === 1
        ? toolChunk([{ index: 1, id: "call_2", type: "function", function: { name: "x" } }])
        : "") +
      (at === 2 ? toolChunk([{ index: 1, function: { arguments: '{"z": 1}' } }]) : "")
    ).join("") +
    toolChunk([], "tool_calls") + "data: [DONE]\n\n";
  await withChatCompletionsService(
    { completions: [streamed(body, "text/event-stream")] },
    async (service, backend) => {
      const result = await translateOk(service, { ...COMPATIBLE, texts: ["Bonjour", "Merci"] });
      assert.deepEqual(result.results.map((item) => item.text), ["Hello", "Thank you"]);
      assert.equal(backend.chats.length, 1);
    },
  );
});

Deno.test("POST /v1/translate through compatible-api quotes a refusal streamed in pieces, asking once", async () => {
  const chunk = (delta: unknown, finishReason: string | null = null) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
  const body = chunk({ role: "assistant", content: null, refusal: "" }) +
    pieces("I can't help with that.", 4).map((piece) => chunk({ refusal: piece })).join("") +
    chunk({}, "stop") + "data: [DONE]\n\n";
  await withChatCompletionsService(
    { completions: [streamed(body, "text/event-stream")] },
    async (service, backend) => {
      const message = await engineFailureMessage(service, { ...COMPATIBLE, texts: ["Bonjour"] });
      assert.equal(
        message,
        "compatible-api failed: the model refused to answer: I can't help with that.",
      );
      assert.equal(backend.chats.length, 1);
    },
  );
});

/** Streams that end before their end: the connection closed mid-answer, no terminator. */
const CUT_STREAMS = [
  {
    name: "an SSE stream without [DONE] nor a finish reason, its JSON whole",
    body: sseChunks('{"1": "Hello"}').replace(
      /data: \{[^\n]*"finish_reason":"stop"[^\n]*\n\ndata: \[DONE\]\n\n$/,
      "",
    ),
  },
  {
    name: "an SSE stream without [DONE] nor a finish reason, cut mid-text",
    body: sseChunks('{"1": "Hello there"}').split("\n\n").slice(0, 4).join("\n\n") + "\n\n",
  },
];

for (const { name, body } of CUT_STREAMS) {
  Deno.test(`POST /v1/translate through compatible-api reads ${name} as cut off: asked again, then a 500 saying so`, async () => {
    assert.ok(!body.includes("[DONE]") && !body.includes('"finish_reason":"stop"'));
    const cut = streamed(body, "text/event-stream");
    await withChatCompletionsService(
      { completions: [cut, cut, cut] },
      async (service, backend) => {
        const message = await engineFailureMessage(service, { ...COMPATIBLE, texts: ["Bonjour"] });
        assert.match(
          message,
          /^compatible-api failed: .*id 1: the server's stream ended before its answer did/,
        );
        assert.equal(backend.chats.length, 3);
      },
    );
    await withChatCompletionsService(
      { completions: [cut, streamed(sseChunks('{"1": "Hello"}'), "text/event-stream")] },
      async (service, backend) => {
        const result = await translateOk(service, { ...COMPATIBLE, texts: ["Bonjour"] });
        assert.equal(result.results[0].text, "Hello");
        assert.equal(backend.chats.length, 2);
      },
    );
  });
}

/** How many of an NDJSON stream's lines came: all but the done line, or only the first (JSON). */
const NDJSON_CUTS = [{ name: "lines", keep: -1 }, { name: "one line, itself JSON", keep: 1 }];

for (const { name, keep } of NDJSON_CUTS) {
  Deno.test(`POST /v1/translate through engine-one reads NDJSON ${name} without done: true as cut off: asked again, then a 500 saying so`, async () => {
    const lines = ndjsonLines('{"1": "Good day"}').trimEnd().split("\n");
    const body = lines.slice(0, keep).join("\n") + "\n";
    const cut = { body, contentType: "application/x-ndjson" };
    await withStandInService({ script: [cut, cut, cut] }, async (service, runner) => {
      const message = await engineFailureMessage(service, { ...ENGINE_ONE, texts: ["Guten Tag"] });
      assert.match(
        message,
        /^engine-one failed: .*id 1: the server's stream ended before its answer did/,
      );
      assert.equal(runner.chats.length, 3);
    });
  });
}

Deno.test("POST /v1/translate quotes an error event in a streamed answer (500 naming the engine)", async () => {
  const sseError = 'data: {"error": {"message": "upstream model crashed", "code": "x"}}\n\n';
  await withChatCompletionsService(
    { completions: [streamed(sseError, "text/event-stream")] },
    async (service) => {
      const message = await engineFailureMessage(service, { ...COMPATIBLE, texts: ["Bonjour"] });
      assert.match(message, /^compatible-api failed: .*upstream model crashed/);
    },
  );
  const ndjson = ndjsonLines('{"1": "Go').split("\n")[0] + '\n{"error": "runner exited"}\n';
  const script = [{ body: ndjson, contentType: "application/x-ndjson" }];
  await withStandInService({ script }, async (service) => {
    const message = await engineFailureMessage(service, { ...ENGINE_ONE, texts: ["Guten Tag"] });
    assert.match(message, /^engine-one failed: .*runner exited/);
  });
});

Deno.test("a body labelled as a stream may be larger than a one-piece answer: its envelope repeats per token", async () => {
  // The worst case the bound allows for: one character a token (a text of 100 may get 332),
  // each chunk some 550 bytes (OpenAI's adds an `obfuscation` pad): over the 157 KB bound of a
  // one-piece answer.
  const answer = sseChunks(JSON.stringify({ "1": "Hello ".repeat(50) }), "stop", 1, 400);
  assert.ok(answer.length > 160_000, `${answer.length} bytes`);
  const labelled = [streamed(answer, "text/event-stream"), streamed(answer, "application/json")];
  await withChatCompletionsService({ completions: labelled }, async (service) => {
    // Two texts of 100 characters (a repeated one would come from the translation memory).
    const [first, second] = ["Bonjour", "Bonsoir"].map((word) =>
      `${word} `.repeat(12) + "mes amis"
    );
    const read = await translateOk(service, { ...COMPATIBLE, texts: [first] });
    assert.equal(read.results[0].text, "Hello ".repeat(50).trim());
    const request = { ...COMPATIBLE, texts: [second] };
    const error = await expectError(await postTranslate(service, request), 500, "internal_error");
    assert.match(error.error.message, /answered more than \d+ bytes/);
  });
});

/** Answers that are neither JSON nor a stream of JSON events, whatever they are labelled. */
const GARBAGE = [
  { name: "an HTML page", body: "<html><body>Bad gateway</body></html>", type: "text/html" },
  {
    name: "SSE events that are not JSON",
    body: "data: hello\n\ndata: world\n\n",
    type: "text/event-stream",
  },
  { name: "SSE with only [DONE]", body: "data: [DONE]\n\n", type: "text/event-stream" },
  {
    // Broken before its last line: a last line cut short is a stream that ended early instead.
    name: "NDJSON with a broken line",
    body: '{"mess\n{"message": {}}\n',
    type: "application/x-ndjson",
  },
  { name: "an empty body", body: "", type: "application/json" },
];

for (const { name, body, type } of GARBAGE) {
  Deno.test(`POST /v1/translate answers 500 naming compatible-api for ${name}, asking once`, async () => {
    await withChatCompletionsService({ completions: [streamed(body, type)] }, async (service) => {
      const message = await engineFailureMessage(service, { ...COMPATIBLE, texts: ["Bonjour"] });
      assert.match(
        message,
        /^compatible-api failed: http:\/\/127\.0\.0\.1:\d+ answered /,
      );
    });
  });
}

/** Bodies as servers send them, and what is read from them (undefined: not a stream). */
const EVENT_BODIES = [
  {
    name: "SSE with CRLF line ends",
    body: 'data: {"a":1}\r\n\r\ndata: {"a":2}\r\n\r\n',
    read: { events: [{ a: 1 }, { a: 2 }], done: false },
  },
  {
    name: "SSE with an event split over data lines",
    body: 'data: {"a":\ndata: 1}\n\n',
    read: { events: [{ a: 1 }], done: false },
  },
  {
    name: "SSE with comments, event names and ids",
    body: ': ping\nevent: chunk\nid: 7\ndata:{"a":1}\n\n',
    read: { events: [{ a: 1 }], done: false },
  },
  {
    name: "SSE ending without a blank line",
    body: 'data: {"a":1}\n\ndata: {"a":2}',
    read: { events: [{ a: 1 }, { a: 2 }], done: false },
  },
  {
    name: "SSE ending with [DONE], anything after it ignored",
    body: 'data: {"a":1}\n\ndata: [DONE]\n\ndata: {"a":2}\n\n',
    read: { events: [{ a: 1 }], done: true },
  },
  {
    name: "NDJSON with blank lines",
    body: '{"a":1}\n\n{"a":2}\n',
    read: { events: [{ a: 1 }, { a: 2 }], done: false },
  },
  { name: "NDJSON of numbers", body: "1\n2\n", read: undefined },
  { name: "text that is no stream", body: "Bad gateway", read: undefined },
];

for (const { name, body, read } of EVENT_BODIES) {
  Deno.test(`streamEvents reads ${name}`, () => {
    assert.deepEqual(streamEvents(body), read);
  });
}
