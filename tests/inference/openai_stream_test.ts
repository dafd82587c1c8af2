import assert from "node:assert/strict";
import {
  type GenerateOptions,
  GenerationError,
  type GenerationResult,
  type TokenLogprob,
} from "../../inference/generation.ts";
import { chatCompletionStream } from "../../inference/openai_stream.ts";
import { ChatCompletionChunkSchema, ErrorBodySchema } from "../../schemas/openai.ts";

const META = { id: "chatcmpl-1", created: 1_700_000_000, model: "tiny" };

/** A generation that emits `pieces`, then ends with `end` (a result or a thrown error). */
function scripted(pieces: string[], end: Partial<GenerationResult> | Error) {
  return async (options: GenerateOptions): Promise<GenerationResult> => {
    for (const piece of pieces) {
      await Promise.resolve();
      if (options.signal?.aborted) {
        return { text: "", stopReason: "abort", promptTokens: 5, completionTokens: 0 };
      }
      options.onText?.(piece);
    }
    if (end instanceof Error) throw end;
    return {
      text: pieces.join(""),
      stopReason: "maxTokens",
      promptTokens: 5,
      completionTokens: pieces.length,
      ...end,
    };
  };
}

async function events(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const text = await new Response(stream).text();
  assert.ok(text.endsWith("\n\n"), "the stream ends with a complete event");
  return text.slice(0, -2).split("\n\n").map((event) => {
    assert.match(event, /^data: .+$/);
    return event.slice("data: ".length);
  });
}

const CASES: Array<{
  name: string;
  pieces: string[];
  end: Partial<GenerationResult> | Error;
  includeUsage: boolean;
  expect: string[];
}> = [
  {
    name: "role, content, finish length, [DONE]",
    pieces: ["he", "llo"],
    end: {},
    includeUsage: false,
    expect: ["role", "content:he", "content:llo", "finish:length", "[DONE]"],
  },
  {
    name: "a stop sequence finishes with stop; include_usage adds a usage chunk before [DONE]",
    pieces: ["a"],
    end: { stopReason: "stopSequence" },
    includeUsage: true,
    expect: ["role", "content:a", "finish:stop", "usage:1", "[DONE]"],
  },
  {
    name: "empty pieces are not sent",
    pieces: ["", "x", ""],
    end: { stopReason: "endOfTurn" },
    includeUsage: false,
    expect: ["role", "content:x", "finish:stop", "[DONE]"],
  },
  {
    name: "a refused generation mid-stream becomes one error event and no [DONE]",
    pieces: ["a"],
    end: new GenerationError({ kind: "model_not_ready", phase: "stopping" }),
    includeUsage: false,
    expect: ["role", "content:a", "error:model_not_ready"],
  },
  {
    name: "an unexpected failure is an internal_error event without its message",
    pieces: [],
    end: new Error("secret user text"),
    includeUsage: false,
    expect: ["role", "error:internal_error"],
  },
];

/** One word per event, so a case reads as the sequence it expects. */
function describeEvent(data: string): string {
  if (data === "[DONE]") return data;
  const json = JSON.parse(data);
  if (json.error) {
    const body = ErrorBodySchema.strict().parse(json);
    assert.ok(!body.error.message.includes("secret"), "no internal message leaks");
    return `error:${body.error.code}`;
  }
  const chunk = ChatCompletionChunkSchema.parse(json);
  assert.equal(chunk.id, META.id);
  if (chunk.usage) return `usage:${chunk.usage.completion_tokens}`;
  const choice = chunk.choices[0];
  if (choice.delta.role) return "role";
  if (choice.finish_reason) return `finish:${choice.finish_reason}`;
  return `content:${choice.delta.content}`;
}

for (const { name, pieces, end, includeUsage, expect } of CASES) {
  Deno.test(`chatCompletionStream: ${name}`, async () => {
    const done: GenerationResult[] = [];
    const unexpected: unknown[] = [];
    const stream = chatCompletionStream({
      meta: META,
      includeUsage,
      signal: new AbortController().signal,
      generate: scripted(pieces, end),
      onDone: (result) => done.push(result),
      onUnexpected: (error) => unexpected.push(error),
    });
    assert.deepEqual((await events(stream)).map(describeEvent), expect);
    const failed = end instanceof Error;
    assert.equal(done.length, failed ? 0 : 1);
    assert.equal(unexpected.length, failed && !(end instanceof GenerationError) ? 1 : 0);
  });
}

Deno.test("chatCompletionStream: with include_usage every chunk but the usage one has usage null", async () => {
  const stream = chatCompletionStream({
    meta: META,
    includeUsage: true,
    signal: new AbortController().signal,
    generate: scripted(["a", "b"], {}),
  });
  const chunks = (await events(stream)).slice(0, -1).map((e) => JSON.parse(e));
  assert.ok(chunks.slice(0, -1).every((chunk) => chunk.usage === null));
  assert.deepEqual(chunks.at(-1).choices, []);
});

Deno.test("chatCompletionStream: the client going away aborts the generation and ends the stream", async () => {
  const client = new AbortController();
  let seen: AbortSignal | undefined;
  const done: GenerationResult[] = [];
  const stream = chatCompletionStream({
    meta: META,
    includeUsage: false,
    signal: client.signal,
    generate: (options) => {
      seen = options.signal;
      return new Promise((resolve) =>
        options.signal!.addEventListener(
          "abort",
          () => resolve({ text: "", stopReason: "abort", promptTokens: 5, completionTokens: 0 }),
        )
      );
    },
    onDone: (result) => done.push(result),
  });
  const reader = stream.getReader();
  const first = await reader.read();
  assert.match(new TextDecoder().decode(first.value), /"role":"assistant"/);
  client.abort();
  assert.equal(seen?.aborted, true);
  assert.deepEqual(await reader.read(), { done: true, value: undefined });
  assert.equal(done[0].stopReason, "abort");
});

Deno.test("chatCompletionStream: cancelling the body aborts the generation", async () => {
  let seen: AbortSignal | undefined;
  const stream = chatCompletionStream({
    meta: META,
    includeUsage: false,
    signal: new AbortController().signal,
    generate: (options) => {
      seen = options.signal;
      return new Promise(() => {});
    },
  });
  const reader = stream.getReader();
  await reader.read();
  await reader.cancel();
  assert.equal(seen?.aborted, true);
});

/** A token's logprob entry for the scripted generations below. */
function token(text: string): TokenLogprob {
  return { text, bytes: [...new TextEncoder().encode(text)], logprob: -1, top: [] };
}

const FINISH_LOGPROBS: Array<{ name: string; unsent: string[]; expect: string[] | null }> = [
  // OpenAI and llama-server end a stream so; `{content: []}` was sent.
  { name: "every token went with its text: null", unsent: [], expect: null },
  { name: "a token not sent with text: that token", unsent: ["\uFFFD"], expect: ["\uFFFD"] },
];

for (const { name, unsent, expect } of FINISH_LOGPROBS) {
  Deno.test(`chatCompletionStream: the finish chunk's logprobs when ${name}`, async () => {
    const sent = ["he", "llo"].map(token);
    const stream = chatCompletionStream({
      meta: META,
      includeUsage: false,
      signal: new AbortController().signal,
      generate: (options) => {
        for (const entry of sent) options.onText?.(entry.text, [entry]);
        return Promise.resolve({
          text: "hello",
          stopReason: "maxTokens",
          promptTokens: 5,
          completionTokens: sent.length + unsent.length,
          logprobs: [...sent, ...unsent.map(token)],
        });
      },
    });
    const chunks = (await events(stream)).slice(0, -1).map((e) =>
      ChatCompletionChunkSchema.parse(JSON.parse(e))
    );
    const finish = chunks.at(-1)!.choices[0];
    assert.equal(finish.finish_reason, "length");
    assert.deepEqual(finish.logprobs?.content?.map((entry) => entry.token) ?? null, expect);
  });
}
