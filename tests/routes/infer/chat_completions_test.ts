import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import {
  ChatCompletionChunkSchema,
  ChatCompletionSchema,
  ErrorBodySchema,
} from "../../../schemas/openai.ts";
import { NATIVE_SANITIZERS, startInferApp } from "../../support/infer_app.ts";
import { startInferDaemon } from "../../support/infer_daemon.ts";
import { HI, postChat } from "../../support/infer_requests.ts";

async function expectError(response: Response, status: number, code: string, param: string | null) {
  const body = ErrorBodySchema.strict().parse(await response.json());
  assert.equal(response.status, status, JSON.stringify(body));
  assert.equal(body.error.code, code);
  assert.equal(body.error.param, param);
  assert.ok(response.headers.get("x-request-id"));
  return body;
}

/** A completion at temperature 1 with a seed, so a run with and one without stops compare. */
async function complete(baseUrl: string, fields: Record<string, unknown>) {
  const response = await postChat(baseUrl, { messages: HI, temperature: 1, ...fields });
  return ChatCompletionSchema.parse(await response.json());
}

const SEEDS = Array.from({ length: 120 }, (_, i) => i);
const STOP_CASES: Array<[string[], number[]]> = [[["a", "b"], SEEDS], [["th", "he"], [
  10,
  20,
  41,
  61,
  86,
]]];

/** An empty turn of each role, where a conversation may hold it. */
const EMPTY_TURNS = [
  { where: "first", role: "user", before: [], after: HI },
  { where: "last", role: "user", before: HI, after: [] },
  { where: "first", role: "system", before: [], after: HI },
  { where: "middle", role: "assistant", before: HI, after: HI },
];

/** Runtime refusals reach the client before any stream starts, with their wire codes. */
const REFUSALS = [
  {
    name: "a prompt with max_tokens beyond the context",
    body: { messages: HI, max_tokens: 4000, stream: true },
    status: 400,
    code: "context_length_exceeded",
    param: "messages",
  },
  {
    name: "a schema keyword no grammar enforces",
    body: {
      messages: HI,
      stream: true,
      response_format: { type: "json_schema", json_schema: { schema: { minimum: 1 } } },
    },
    status: 400,
    code: "invalid_request",
    param: "response_format.json_schema.schema",
  },
];

Deno.test({
  name: "POST /v1/chat/completions on a real runtime",
  ...NATIVE_SANITIZERS,
  async fn(t) {
    const app = await startInferApp();
    try {
      await t.step("answers a chat.completion counting real tokens", async () => {
        const response = await postChat(app.baseUrl, { messages: HI, max_tokens: 5 });
        const body = ChatCompletionSchema.parse(await response.json());
        assert.equal(body.usage.completion_tokens, 5);
        assert.equal(body.choices[0].finish_reason, "length");
        assert.ok(app.logs.some((line) => /generation maxTokens: \d+ prompt \+ 5/.test(line)));
      });

      await t.step("streams chunks of one id ending with finish and [DONE]", async () => {
        const response = await postChat(app.baseUrl, { messages: HI, max_tokens: 3, stream: true });
        assert.match(response.headers.get("content-type")!, /^text\/event-stream/);
        const events = (await response.text()).trim().split("\n\n").map((e) => e.slice(6));
        assert.equal(events.at(-1), "[DONE]");
        const chunks = events.slice(0, -1).map((e) =>
          ChatCompletionChunkSchema.parse(JSON.parse(e))
        );
        assert.equal(new Set(chunks.map((chunk) => chunk.id)).size, 1);
        assert.equal(chunks.at(-1)!.choices[0].finish_reason, "length");
      });

      await t.step(
        "max_tokens holds with stop sequences: never more tokens, never more text",
        async () => {
          // Seeds 73 and 108 made node-llama-cpp run to 6 and 5 tokens with these stops.
          for (const [stop, seeds] of STOP_CASES) {
            for (const seed of seeds) {
              const plain = await complete(app.baseUrl, { max_tokens: 4, seed });
              const stopped = await complete(app.baseUrl, { max_tokens: 4, seed, stop });
              const where = `seed ${seed}, stop ${JSON.stringify(stop)}`;
              assert.ok(
                stopped.usage.completion_tokens <= 4,
                `${where}: ${stopped.usage.completion_tokens}`,
              );
              const text = stopped.choices[0].message.content;
              assert.ok(plain.choices[0].message.content.startsWith(text), `${where}: ${text}`);
            }
          }
        },
      );

      for (const { role, before, after } of EMPTY_TURNS) {
        await t.step(
          `keeps an empty ${role} turn in the prompt, as llama-server does`,
          async () => {
            const without = await complete(app.baseUrl, {
              max_tokens: 1,
              messages: [...before, ...after],
            });
            const withEmpty = await complete(app.baseUrl, {
              max_tokens: 1,
              messages: [...before, { role, content: "" }, ...after],
            });
            assert.ok(
              withEmpty.usage.prompt_tokens > without.usage.prompt_tokens,
              `${withEmpty.usage.prompt_tokens} prompt tokens with the empty turn, ` +
                `${without.usage.prompt_tokens} without`,
            );
          },
        );
      }

      await t.step(
        "refuses 30,000 empty turns with context_length_exceeded before rendering them",
        async () => {
          // Kept empty turns each cost template tokens: rendered and tokenized, these took 10 s
          // of the event loop (every stream and /health with it) before the same 400.
          const messages = Array.from({ length: 30_000 }, () => ({ role: "user", content: "" }));
          const response = await postChat(app.baseUrl, { messages, max_tokens: 1 });
          const body = await expectError(response, 400, "context_length_exceeded", "messages");
          // The bound's count (a token per turn after the first), not the rendered prompt's.
          assert.match(body.error.message, /needs more than 29999 prompt tokens/);
        },
      );

      for (const row of REFUSALS) {
        await t.step(`refuses ${row.name} with ${row.status} ${row.code}`, async () => {
          await expectError(await postChat(app.baseUrl, row.body), row.status, row.code, row.param);
        });
      }
    } finally {
      await app.stop();
    }
  },
});

Deno.test({
  name: "POST /v1/chat/completions while the model loads is 503 model_not_ready",
  ...NATIVE_SANITIZERS,
  async fn() {
    const app = await startInferApp({ waitReady: false });
    try {
      await expectError(
        await postChat(app.baseUrl, { messages: HI }),
        503,
        "model_not_ready",
        null,
      );
    } finally {
      await app.stop();
    }
  },
});

Deno.test({
  name: "POST /v1/chat/completions with a gzip body is a 400 naming its Content-Encoding",
  ...NATIVE_SANITIZERS,
  async fn() {
    // Not read as bytes that "are not valid UTF-8": llama.cpp's server and the OpenAI clients
    // send no compressed bodies, so the coding is named and refused (as on `tolk serve`).
    const app = await startInferApp({ waitReady: false });
    try {
      const gzipped = gzipSync(JSON.stringify({ messages: HI }));
      const response = await fetch(`${app.baseUrl}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-encoding": "gzip" },
        body: gzipped,
      });
      const body = await expectError(response, 400, "invalid_request", null);
      assert.match(body.error.message, /Content-Encoding gzip/, body.error.message);
    } finally {
      await app.stop();
    }
  },
});

Deno.test(
  "POST /v1/chat/completions right after a client aborts its stream is served, not server_busy",
  async () => {
    // A daemon of its own: the client's abort and its retry reach the server as they would from
    // any client, on two connections. One slot and no queue: a slot still held is a refusal.
    const daemon = await startInferDaemon({
      args: ["--max-concurrent-requests", "1", "--max-queued-requests", "0"],
    });
    try {
      // The retry raced the close of the aborted connection and lost about one round in ten.
      for (let round = 0; round < 20; round++) {
        const abort = new AbortController();
        const streamed = await fetch(`${daemon.baseUrl}/v1/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ messages: HI, max_tokens: 1800, stream: true }),
          signal: abort.signal,
        });
        await streamed.body!.getReader().read();
        abort.abort();
        const next = await postChat(daemon.baseUrl, { messages: HI, max_tokens: 2 });
        const body = await next.text();
        assert.equal(next.status, 200, `round ${round}: ${body}`);
        assert.equal(ChatCompletionSchema.parse(JSON.parse(body)).usage.completion_tokens, 2);
      }
    } finally {
      await daemon.stop();
    }
  },
);
