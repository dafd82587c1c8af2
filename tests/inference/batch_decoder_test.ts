import assert from "node:assert/strict";
import { BatchDecoder } from "../../inference/batch_decoder.ts";
import type { DecodeResult } from "../../inference/decode_job.ts";
import { CpuContention } from "../../inference/cpu_contention.ts";
import { NATIVE_SANITIZERS as NATIVE } from "../support/infer_app.ts";
import { fakeProc, type FakeTask, OWN_PID } from "../support/fake_proc.ts";
import { quietDecoder, tinyContext } from "../support/tiny_decoder.ts";

/**
 * Another process's task that is runnable: always, or only while it handles a streamed piece
 * (from the piece until the next step ends, as a client reading the stream).
 */
const COMPETITORS: Array<{ name: string; wakesOnText: boolean; alwaysRunnable: boolean }> = [
  {
    name: "a client that wakes to read each streamed piece",
    wakesOnText: true,
    alwaysRunnable: false,
  },
  { name: "a process runnable throughout", wakesOnText: false, alwaysRunnable: true },
];

for (const { name, wakesOnText, alwaysRunnable } of COMPETITORS) {
  const expected = alwaysRunnable ? 1 : 2;
  Deno.test({
    name: `BatchDecoder beside ${name} decodes with ${expected} of 2 threads on 2 cores`,
    ...NATIVE,
    async fn() {
      const { model, context, close } = await tinyContext({
        cells: 256,
        sequences: 1,
        batchSize: 64,
        threads: 2,
        streams: true,
      });
      const other: FakeTask = { pid: 200, tid: 200, state: alwaysRunnable ? "R" : "S", nice: 0 };
      let clock = 0; // a second passes between reads: every step samples and scans /proc
      const contention = new CpuContention(fakeProc([other]), {
        cores: 2,
        pid: OWN_PID,
        now: () => (clock += 1000),
      });
      const used: number[] = [];
      let result: DecodeResult | undefined;
      const decoder = new BatchDecoder(model, context, {
        sequences: 1,
        contention,
        events: {
          text() {
            used.push(decoder.threads);
            if (wakesOnText) other.state = "R";
          },
          end: (_, end) => result = end,
          fail: (_, reason) => assert.fail(reason),
        },
      });
      try {
        decoder.start({
          id: 1,
          prompt: [1, 2, 3, 4],
          maxTokens: 24,
          sampler: { temperature: 0, topP: 1, seed: 1 },
          stopTokenSequences: [],
          stopTexts: [],
        });
        while (decoder.busy) {
          decoder.step();
          if (wakesOnText) other.state = "S"; // the client has read before the next step ends
        }
        assert.equal(result?.completionTokens, 24);
        assert.ok(used.length >= 20, `${used.length} pieces`);
        assert.equal(used.at(-1), expected, `threads per piece: ${used.join(" ")}`);
      } finally {
        decoder.close();
        await close();
      }
    },
  });
}

/** Two generations of 100 + 60 tokens, more than one 256-cell context holds together. */
const KV_LAYOUTS = [
  { name: "one unified stream (a GPU's): the newest re-reads", streams: false },
  { name: "a stream per sequence (the CPU's)", streams: true },
];

for (const { name, streams } of KV_LAYOUTS) {
  Deno.test({
    name: `BatchDecoder with ${name} answers two long generations as each alone`,
    ...NATIVE,
    async fn() {
      const { model, context, close } = await tinyContext({
        cells: 256,
        sequences: 2,
        batchSize: 256,
        threads: 1,
        streams,
      });
      const results = new Map<number, DecodeResult>();
      const decoder = quietDecoder({ model, context }, 2, (id, result) => results.set(id, result));
      const job = (id: number) => ({
        id,
        prompt: Array.from({ length: 100 }, (_, i) => 5 + (i * (id + 3)) % 200),
        maxTokens: 60,
        sampler: { temperature: 0, topP: 1, seed: 1 },
        stopTokenSequences: [],
        stopTexts: [],
      });
      const run = (ids: number[], offset: number) => {
        for (const id of ids) decoder.start({ ...job(id), id: id + offset });
        while (decoder.busy) decoder.step();
      };
      try {
        assert.equal(context.sequenceCells, 256);
        assert.equal(context.cells, streams ? 512 : 256);
        run([1, 2], 0);
        run([1], 10);
        run([2], 10);
        for (const id of [1, 2]) {
          assert.equal(results.get(id)?.completionTokens, 60);
          assert.equal(results.get(id)?.text, results.get(id + 10)?.text);
        }
      } finally {
        decoder.close();
        await close();
      }
    },
  });
}

/** Answers to `prompts` read one after another by one decoder of one slot (so its cells are reused). */
async function answersInOneSlot(prompts: number[][], maxTokens = 12): Promise<string[]> {
  const { model, context, close } = await tinyContext({
    cells: 512,
    sequences: 1,
    batchSize: 512,
    threads: 1,
    streams: true,
  });
  const texts: string[] = [];
  const decoder = quietDecoder({ model, context }, 1, (_, result) => texts.push(result.text));
  try {
    assert.equal(model.embeddingSize, 64); // tests/fixtures/make_tiny_gguf.py's "tiny"
    prompts.forEach((prompt, id) => {
      decoder.start({
        id,
        prompt,
        maxTokens,
        sampler: { temperature: 0, topP: 1, seed: 1 },
        stopTokenSequences: [],
        stopTexts: [],
      });
      while (decoder.busy) decoder.step();
    });
    return texts;
  } finally {
    decoder.close();
    await close();
  }
}

Deno.test({
  name: "BatchDecoder reads a long prompt after a kept prefix that ends inside a tile as if fresh",
  ...NATIVE,
  async fn() {
    const tokens = (from: number, length: number) =>
      Array.from({ length }, (_, i) => 5 + ((from + i) * 37) % 390);
    const first = tokens(0, 100);
    // Shares 5 tokens with `first`: read again from cell 0 (prompt_reuse.ts), 300 more to read.
    const long = [...first.slice(0, 5), ...tokens(1000, 300)];
    // Shares 70 with `long`, 20 to read: all 70 kept. Then 70 shared and 300 to read: 64 kept.
    const short = [...long.slice(0, 70), ...tokens(2000, 20)];
    const longAgain = [...long.slice(0, 70), ...tokens(3000, 300)];
    const prompts = [first, long, short, longAgain];
    const reused = await answersInOneSlot(prompts);
    const fresh = await Promise.all(
      prompts.map(async (prompt) => (await answersInOneSlot([prompt]))[0]),
    );
    assert.deepEqual(reused, fresh);
  },
});

Deno.test({
  name:
    "BatchDecoder gives a prompt sharing only a template's first tokens the least recently used " +
    "slot, so a conversation's cells stay for its follow-up",
  ...NATIVE,
  async fn() {
    const { model, context, close } = await tinyContext({
      cells: 512,
      sequences: 2,
      batchSize: 32,
      threads: 1,
      streams: true,
    });
    const texts = new Map<number, string>();
    const decoder = quietDecoder({ model, context }, 2, (id, result) => texts.set(id, result.text));
    /** Steps the decoder takes to answer `prompt` with one token: one per 32 tokens it reads. */
    const stepsFor = (id: number, prompt: number[]) => {
      decoder.start({
        id,
        prompt,
        maxTokens: 1,
        sampler: { temperature: 0, topP: 1, seed: 1 },
        stopTokenSequences: [],
        stopTexts: [],
      });
      let steps = 0;
      for (; decoder.busy; steps++) decoder.step();
      return steps;
    };
    const tokens = (from: number, length: number) =>
      Array.from({ length }, (_, i) => 5 + ((from + i) * 37) % 390);
    const conversation = tokens(0, 200);
    const followUp = [...conversation, ...tokens(2000, 20)];
    try {
      assert.equal(stepsFor(1, conversation), 7);
      // Shares 3 tokens (1.5%) with the conversation's cells: the other, never used slot.
      assert.equal(stepsFor(2, [...conversation.slice(0, 3), ...tokens(1000, 197)]), 7);
      // The conversation's 200 tokens are still in its slot's cells: 20 to read, one step.
      assert.equal(stepsFor(3, followUp), 1);
    } finally {
      decoder.close();
      await close();
    }
    assert.equal(texts.get(3), (await answersInOneSlot([followUp], 1))[0]);
  },
});

Deno.test({
  name:
    "BatchDecoder gives llama.cpp each step's tokens in sequence order, so streams decode in one " +
    "micro-batch",
  ...NATIVE,
  async fn() {
    const { model, context, close } = await tinyContext({
      cells: 256,
      sequences: 3,
      batchSize: 64,
      threads: 1,
      streams: true,
    });
    // Each call's sequences, as the decoder hands them over (the context decodes them as ever).
    const orders: number[][] = [];
    const decode = context.decode.bind(context);
    context.decode = (tokens) => {
      orders.push(tokens.map((token) => token.sequence));
      return decode(tokens);
    };
    const texts = new Map<number, string>();
    const decoder = quietDecoder({ model, context }, 3, (id, result) => texts.set(id, result.text));
    const start = (id: number) =>
      decoder.start({
        id,
        prompt: Array.from({ length: 20 }, (_, i) => 5 + ((id * 100 + i) * 37) % 390),
        maxTokens: 12,
        sampler: { temperature: 0, topP: 1, seed: 1 },
        stopTokenSequences: [],
        stopTexts: [],
      });
    try {
      // Job 1 leaves slot 0 the most recently used: jobs 2 and 3 take slots 1 and 2, and job 4,
      // started later, slot 0, so oldest first would be slots 1, 2, 0.
      start(1);
      while (decoder.busy) decoder.step();
      start(2);
      start(3);
      for (let step = 0; step < 3; step++) decoder.step();
      start(4);
      while (decoder.busy) decoder.step();
      const allThree = orders.filter((order) => new Set(order).size === 3);
      assert.ok(allThree.length >= 5, `steps with all three sequences: ${allThree.length}`);
      for (const order of orders) {
        assert.deepEqual(order, order.toSorted((a, b) => a - b), `sequences ${order.join(" ")}`);
      }
      assert.equal(texts.size, 4);
    } finally {
      decoder.close();
      await close();
    }
  },
});
