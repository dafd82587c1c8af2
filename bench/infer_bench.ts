/**
 * Benchmark of `tolk infer` (`deno task bench:infer`): decode tokens/s and time to first token
 * through HTTP streaming against node-llama-cpp called in-process, aggregate tokens/s with 1, 2
 * and 4 concurrent streams, and node-llama-cpp at 2 threads per context.
 *
 * The model is the bench model of bench/bench_model.ts. Prints a markdown section for BENCHMARKS.md.
 */
import { cpus } from "node:os";
import { LlamaChat } from "node-llama-cpp";
import { loadLlama } from "../inference/llama_model.ts";
import { LlamaRuntime } from "../inference/llama_runtime.ts";
import { startInferDaemon } from "../tests/support/infer_daemon.ts";
import { BENCH_MODEL, ensureBenchModel } from "./bench_model.ts";

const MODEL = BENCH_MODEL;
const PROMPT = "Translate to French: The quick brown fox jumps over the lazy dog near the river " +
  "bank, while the children play in the garden and the sun sets behind the hills.";
const MAX_TOKENS = 128;
const RUNS = 21;

interface Sample {
  ttftMs: number;
  tokens: number;
  /** Tokens after the first, per second of decoding. */
  decodeTps: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function sampleFrom(start: number, first: number, last: number, tokens: number): Sample {
  return { ttftMs: first - start, tokens, decodeTps: (tokens - 1) / ((last - first) / 1000) };
}

/** node-llama-cpp alone: one context, one LlamaChat, the same settings as the daemon. */
async function inProcess(threads: number) {
  const llama = await loadLlama("auto");
  const model = await llama.loadModel({ modelPath: MODEL, gpuLayers: 0 });
  const context = await model.createContext({
    contextSize: model.trainContextSize,
    threads,
    sequences: 1,
  });
  const chat = new LlamaChat({ contextSequence: context.getSequence() });
  return {
    async sample(): Promise<Sample> {
      let first = 0, last = 0, tokens = 0;
      const start = performance.now();
      await chat.generateResponse(
        [{ type: "user", text: PROMPT }, { type: "model", response: [] }],
        {
          maxTokens: MAX_TOKENS,
          temperature: 0,
          onTextChunk: () => {
            last = performance.now();
            first ||= last;
          },
          onToken: (t) => tokens += t.length,
        },
      );
      return sampleFrom(start, first, last, tokens);
    },
    async dispose() {
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}

/** Runs `sample` once to warm up, then `runs` times. */
async function samples(sample: () => Promise<Sample>, runs: number): Promise<Sample[]> {
  await sample();
  const out: Sample[] = [];
  for (let run = 0; run < runs; run++) out.push(await sample());
  return out;
}

/** One streamed request through HTTP, timing content chunks as they arrive. */
async function httpStream(baseUrl: string): Promise<Sample> {
  const start = performance.now();
  const response = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      messages: [{ role: "user", content: PROMPT }],
      max_tokens: MAX_TOKENS,
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
    }),
  });
  let first = 0, last = 0, tokens = 0, buffer = "";
  for await (const text of response.body!.pipeThrough(new TextDecoderStream())) {
    buffer += text;
    const events = buffer.split("\n\n");
    buffer = events.pop()!;
    for (const event of events) {
      const data = event.slice("data: ".length);
      if (data === "[DONE]") continue;
      const chunk = JSON.parse(data);
      if (chunk.usage) tokens = chunk.usage.completion_tokens;
      if (chunk.choices[0]?.delta?.content) {
        last = performance.now();
        first ||= last;
      }
    }
  }
  return sampleFrom(start, first, last, tokens);
}

/** Aggregate tokens/s of `streams` concurrent HTTP streams (total tokens / wall time). */
async function httpAggregate(baseUrl: string, streams: number): Promise<number> {
  const rates: number[] = [];
  for (let run = 0; run < 3; run++) {
    const start = performance.now();
    const samples = await Promise.all(Array.from({ length: streams }, () => httpStream(baseUrl)));
    const seconds = (performance.now() - start) / 1000;
    rates.push(samples.reduce((n, s) => n + s.tokens, 0) / seconds);
  }
  return median(rates);
}

/** Aggregate tokens/s of the runtime in-process with `streams` concurrent generations. */
async function runtimeAggregate(threads: number, streams: number[]) {
  const runtime = LlamaRuntime.start({ modelPath: MODEL, threads, slots: 4, log: () => {} });
  await runtime.loaded;
  const prepared = await runtime.prepare({
    turns: [{ role: "user", text: PROMPT }],
    maxTokens: MAX_TOKENS,
    temperature: 0,
    topP: 1,
    stop: [],
    format: { kind: "text" },
  });
  const out: Record<number, number> = {};
  for (const n of streams) {
    await Promise.all(Array.from({ length: n }, () => runtime.generate(prepared))); // warm slots
    const rates: number[] = [];
    for (let run = 0; run < 3; run++) {
      const start = performance.now();
      const results = await Promise.all(
        Array.from({ length: n }, () => runtime.generate(prepared)),
      );
      const seconds = (performance.now() - start) / 1000;
      rates.push(results.reduce((sum, r) => sum + r.completionTokens, 0) / seconds);
    }
    out[n] = median(rates);
  }
  await runtime.dispose();
  return out;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

await ensureBenchModel();
const cpu = cpus()[0]?.model ?? "unknown CPU";
const cores = navigator.hardwareConcurrency;

console.error("threads per context (in-process) …");
const twoThreads = await inProcess(2);
const direct2 = await samples(() => twoThreads.sample(), 5);
await twoThreads.dispose();

// In-process and HTTP runs alternate, so background load on the shared machine hits both alike.
console.error("in-process node-llama-cpp vs HTTP streaming through tolk infer …");
const oneThread = await inProcess(1);
const daemon = await startInferDaemon({
  model: MODEL,
  args: ["--max-concurrent-requests", "4", "--threads", "1"],
});
const direct1: Sample[] = [];
const http: Sample[] = [];
const aggregate: Record<number, number> = {};
try {
  await oneThread.sample();
  await httpStream(daemon.baseUrl);
  for (let run = 0; run < RUNS; run++) {
    direct1.push(await oneThread.sample());
    http.push(await httpStream(daemon.baseUrl));
  }
  await oneThread.dispose();
  for (const n of [1, 2, 4]) aggregate[n] = await httpAggregate(daemon.baseUrl, n);
} finally {
  await daemon.stop();
}

console.error("in-process runtime (batched sequences) …");
const batched = await runtimeAggregate(1, [1, 2, 4]);

const directTps = median(direct1.map((s) => s.decodeTps));
const httpTps = median(http.map((s) => s.decodeTps));
const directTtft = median(direct1.map((s) => s.ttftMs));
// Paired figures (run i of each path ran back to back) are robust to drifting background load.
const pairedRatio = median(http.map((s, i) => s.decodeTps / direct1[i].decodeTps));
const pairedTtft = median(http.map((s, i) => s.ttftMs - direct1[i].ttftMs));
const spread = (xs: Sample[], key: "decodeTps" | "ttftMs") =>
  `${fmt(Math.min(...xs.map((s) => s[key])))}–${fmt(Math.max(...xs.map((s) => s[key])))}`;
const httpTtft = median(http.map((s) => s.ttftMs));

console.log(`Model: random llama, 97.2M parameters, q8_0 (${MODEL.split("/").pop()}), generated by
\`tests/fixtures/make_tiny_gguf.py --preset 100m --dtype q8_0\`. Machine: ${cores} vCPU, ${cpu}.
Prompt ${PROMPT.length} characters in the ChatML template, ${MAX_TOKENS} greedy tokens, CPU backend.
Median of ${RUNS} paired runs (5 for threads 2) after a warm-up; decode tokens/s counts the tokens after the first.

| path | threads | decode tok/s (range) | time to first token (range) |
|---|---|---|---|
| node-llama-cpp in-process (LlamaChat) | 1 | ${fmt(directTps)} (${
  spread(direct1, "decodeTps")
}) | ${fmt(directTtft)} ms (${spread(direct1, "ttftMs")}) |
| node-llama-cpp in-process (LlamaChat) | 2 | ${fmt(median(direct2.map((s) => s.decodeTps)))} | ${
  fmt(median(direct2.map((s) => s.ttftMs)))
} ms |
| \`tolk infer\` HTTP streaming (SSE) | 1 | ${fmt(httpTps)} (${spread(http, "decodeTps")}) | ${
  fmt(httpTtft)
} ms (${spread(http, "ttftMs")}) |

- HTTP / in-process decode tokens/s, median of paired runs: **${
  fmt(pairedRatio * 100)
}%** (target ≥ 95%).
- HTTP time-to-first-token overhead, median of paired runs: **${
  fmt(pairedTtft, 2)
} ms** (target < 10 ms).

Aggregate tokens/s (total generated tokens / wall time, median of 3):

| concurrent streams | HTTP | in-process runtime |
|---|---|---|
${[1, 2, 4].map((n) => `| ${n} | ${fmt(aggregate[n])} | ${fmt(batched[n])} |`).join("\n")}`);
