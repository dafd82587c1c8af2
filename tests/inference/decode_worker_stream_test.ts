/**
 * How streamed text leaves the decode worker, against the real app and runtime over HTTP: a
 * generation's pieces wait up to the text interval to go out together (one SSE chunk), its first
 * piece and its end never wait, and the text is the same however it was split. The interval is
 * pinned to 0 (every step sends) or to an hour (nothing but the first piece and the end is sent
 * on its own), so the chunks do not depend on the machine's speed.
 */
import assert from "node:assert/strict";
import { ChatCompletionChunkSchema, ChatCompletionSchema } from "../../schemas/openai.ts";
import { NATIVE_SANITIZERS as NATIVE, startInferApp } from "../support/infer_app.ts";

const TOKENS = 40;
const AN_HOUR_MS = 3_600_000;

function chat(baseUrl: string, content: string, stream: boolean) {
  return fetch(`${baseUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      messages: [{ role: "user", content }],
      max_tokens: TOKENS,
      temperature: 0,
      stream,
    }),
  });
}

/** The content pieces of a streamed answer, one per SSE chunk that carries text. */
async function streamedPieces(baseUrl: string, content: string): Promise<string[]> {
  const response = await chat(baseUrl, content, true);
  assert.equal(response.status, 200);
  const events = (await response.text()).trim().split("\n\n").map((event) => event.slice(6));
  assert.equal(events.at(-1), "[DONE]");
  return events.slice(0, -1)
    .map((event) => ChatCompletionChunkSchema.parse(JSON.parse(event)).choices[0]?.delta.content)
    .filter((piece): piece is string => Boolean(piece));
}

async function answer(baseUrl: string, content: string): Promise<string> {
  const response = await chat(baseUrl, content, false);
  return ChatCompletionSchema.parse(await response.json()).choices[0].message.content ?? "";
}

const PROMPTS = ["hi", "tell me a story about the sea"];

/** Runs `check` against an app whose streamed text waits up to `textIntervalMs`. */
async function withInterval(textIntervalMs: number, check: (baseUrl: string) => Promise<void>) {
  const app = await startInferApp({ runtime: { textIntervalMs } });
  try {
    await check(app.baseUrl);
  } finally {
    await app.stop();
  }
}

Deno.test({
  name: "streamed text held an hour: the first piece, then the rest with the end, same text",
  ...NATIVE,
  fn: () =>
    withInterval(AN_HOUR_MS, async (baseUrl) => {
      for (const prompt of PROMPTS) {
        const pieces = await streamedPieces(baseUrl, prompt);
        assert.equal(pieces.length, 2, JSON.stringify(pieces));
        assert.equal(pieces.join(""), await answer(baseUrl, prompt));
      }
    }),
});

Deno.test({
  name:
    "two streams at once with text held an hour: each sent only with a first piece or an end, its own text",
  ...NATIVE,
  fn: () =>
    withInterval(AN_HOUR_MS, async (baseUrl) => {
      const streamed = await Promise.all(PROMPTS.map((prompt) => streamedPieces(baseUrl, prompt)));
      for (const [i, prompt] of PROMPTS.entries()) {
        // A message carries all waiting text: its first piece, the other's first piece or end,
        // its own end.
        assert.ok(streamed[i].length >= 2 && streamed[i].length <= 4, JSON.stringify(streamed[i]));
        assert.equal(streamed[i].join(""), await answer(baseUrl, prompt));
      }
    }),
});

Deno.test({
  name: "streamed text not held (interval 0): the pieces of every step, same text",
  ...NATIVE,
  fn: () =>
    withInterval(0, async (baseUrl) => {
      for (const prompt of PROMPTS) {
        const pieces = await streamedPieces(baseUrl, prompt);
        assert.ok(pieces.length > TOKENS / 2, JSON.stringify(pieces));
        assert.equal(pieces.join(""), await answer(baseUrl, prompt));
      }
    }),
});
