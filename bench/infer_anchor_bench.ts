/**
 * `tolk infer` side by side with llama.cpp's own `llama-server` (`deno task bench:anchor`).
 *
 * The anchor is built by bench/build_llama_server.sh from the llama.cpp source inside
 * node_modules/node-llama-cpp, with the CPU flags of the prebuilt library tolk loads. Both servers
 * run the same model with the same thread count, both up at once; every measure alternates
 * between them round by round (who goes first alternates too), and a ratio is taken within a
 * round: the median of those ratios is the figure, robust to the background load of a shared
 * machine. Before each measurement both servers are left to go quiet, so neither measures beside
 * the other's leftover work. Generations run to exactly `max_tokens` (the bench model never emits
 * an end token; llama-server also gets `ignore_eos`), checked from `usage`. A round during which
 * other processes took more than a tenth of a core is run again (see `OTHERS_LIMIT`).
 *
 *   deno task bench:anchor [--rounds 5] [--pairs 1] [--threads 1,2] [--tokens 128]
 *     [--measures decode,prefill,aggregate,cpu,threads] [--streams 1,2,4] [--llama-args "..."]
 *
 * `threads` (not in the default set) is a diagnosis, not a race: the CPU each server's threads
 * other than its N computing ones used, as a share of one core, during four streams.
 * `--threads` and `--measures` split a run that would hold the CPU lock too long.
 * Runs with -A: CPU time and RSS come from /proc/<pid>, which Deno opens only then. Prints a
 * markdown section for BENCHMARKS.md, and a last line saying whether tolk's decode got
 * slower with more threads (exit code 1 if so): the rule "more threads is never slower".
 */
import { parseArgs } from "node:util";
import { ensureBenchModel } from "./bench_model.ts";
import { LLAMA_SERVER, SLOTS, startLlamaServer, startTolk, type Target } from "./anchor_servers.ts";
import { median, OTHERS_LIMIT, paired, type Rounds, roundsRedone } from "./anchor_rounds.ts";
import { cpuSeconds, memory, secondsBeyondBusiest, threadSeconds } from "./process_cpu.ts";

const BUILD_SCRIPT = "bench/build_llama_server.sh";

interface Completion {
  promptTokens: number;
  completionTokens: number;
  seconds: number;
  /** Seconds to the first streamed content (streamed requests only). */
  firstSeconds: number;
}

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    rounds: { type: "string" },
    threads: { type: "string" },
    tokens: { type: "string" },
    measures: { type: "string" },
    streams: { type: "string" },
    "llama-args": { type: "string" },
    pairs: { type: "string" },
  },
});
const ROUNDS = Number(args.rounds ?? 5);
const TOKENS = Number(args.tokens ?? 128);
const THREADS = (args.threads ?? "1,2").split(",").map(Number);
const MEASURES = new Set((args.measures ?? "decode,prefill,aggregate,cpu").split(","));
const STREAMS = (args.streams ?? "1,2,4").split(",").map(Number);
/**
 * Pairs of servers started one after the other for each thread count, `--rounds` rounds each,
 * the first started alternating. One pair of processes carries a few points of its own beyond the
 * rounds' noise (two daemons of the same code: 92–103% of each other, BENCHMARKS.md "Fourteenth
 * session"), so the figures pool the rounds of several pairs.
 */
const PAIRS = Number(args.pairs ?? 1);
/** Extra llama-server arguments, e.g. `--llama-args "--load-mode none"` (stated in the output). */
const LLAMA_ARGS = args["llama-args"]?.split(/\s+/).filter(Boolean) ?? [];

/** The rows the rule "more threads is never slower" reads. */
const DECODE_MEASURE = "decode tok/s, 1 stream";
const aggregateMeasure = (streams: number) =>
  `aggregate tok/s, ${streams} stream${streams > 1 ? "s" : ""}`;
const percent = (ratio: number) => `${(ratio * 100).toFixed(0)}%`;
const byPair = (ratios: number[]) => ` (pairs: ${ratios.map(percent).join(", ")})`;

/** A prompt of about `words` words, unique per call so no server reuses a cached prefix. */
let promptCounter = 0;
function promptOf(words: number): string {
  const vocabulary = ["river", "garden", "quick", "brown", "fox", "lazy", "dog", "hills", "sun"];
  const tag = `Request ${++promptCounter} ${crypto.randomUUID()}:`;
  const body = Array.from({ length: words }, (_, i) => vocabulary[(i * 7 + promptCounter) % 9]);
  return `${tag} Translate to French: ${body.join(" ")}.`;
}

async function complete(
  target: Target,
  prompt: string,
  maxTokens: number,
  stream: boolean,
): Promise<Completion> {
  const start = performance.now();
  const response = await fetch(`${target.baseUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      messages: [{ role: "user", content: prompt }],
      max_tokens: maxTokens,
      temperature: 0,
      stream,
      ...(stream ? { stream_options: { include_usage: true } } : {}),
      ...target.extra,
    }),
  });
  if (!response.ok) {
    throw new Error(`${target.name}: HTTP ${response.status} ${await response.text()}`);
  }
  let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
  let first = 0;
  if (stream) {
    let buffer = "";
    for await (const text of response.body!.pipeThrough(new TextDecoderStream())) {
      buffer += text;
      const events = buffer.split("\n\n");
      buffer = events.pop()!;
      for (const event of events) {
        const data = event.replace(/^data: /, "");
        if (!data || data === "[DONE]") continue;
        const chunk = JSON.parse(data);
        if (chunk.usage) usage = chunk.usage;
        if (chunk.choices?.[0]?.delta?.content) first ||= performance.now();
      }
    }
  } else usage = (await response.json()).usage;
  const end = performance.now();
  if (!usage) throw new Error(`${target.name}: no usage in the answer`);
  if (usage.completion_tokens !== maxTokens) {
    throw new Error(
      `${target.name}: generated ${usage.completion_tokens} tokens, not max_tokens ${maxTokens}`,
    );
  }
  return {
    promptTokens: usage.prompt_tokens,
    completionTokens: usage.completion_tokens,
    seconds: (end - start) / 1000,
    firstSeconds: first ? (first - start) / 1000 : NaN,
  };
}

/**
 * A client's view of generation speed: the tokens after the first (`usage.completion_tokens` - 1)
 * over the seconds from the first SSE chunk with content to the end of the stream, so neither the
 * prompt nor the first token's wait counts. llama-server streams one chunk per token; tolk sends
 * the first token's chunk at once, then what the decode worker gathered every 50 ms
 * (`TEXT_INTERVAL_MS`), the last tokens with the end: the same span, fewer chunks.
 */
const decodeRate = async (target: Target) => {
  const result = await complete(target, promptOf(20), TOKENS, true);
  return (result.completionTokens - 1) / (result.seconds - result.firstSeconds);
};
const prefillRate = async (target: Target) => {
  const result = await complete(target, promptOf(PREFILL_WORDS), 1, false);
  return result.promptTokens / result.seconds;
};
const aggregateRate = (streams: number) => async (target: Target) => {
  const start = performance.now();
  const results = await Promise.all(
    Array.from({ length: streams }, () => complete(target, promptOf(20), TOKENS, false)),
  );
  return results.reduce((sum, r) => sum + r.completionTokens, 0) /
    ((performance.now() - start) / 1000);
};
const cpuPerToken = (streams: number) => async (target: Target) => {
  const before = await cpuSeconds(target.pid);
  const results = await Promise.all(
    Array.from({ length: streams }, () => complete(target, promptOf(20), TOKENS, false)),
  );
  const tokens = results.reduce((sum, r) => sum + r.completionTokens + r.promptTokens, 0);
  return ((await cpuSeconds(target.pid)) - before) * 1000 / tokens;
};

/** Share of one core used by the target's threads beyond its `threads` computing ones. */
const otherThreadsShare = (streams: number, threads: number) => async (target: Target) => {
  const before = await threadSeconds(target.pid);
  const start = performance.now();
  // Streamed, so the servers' HTTP side does its per-token work (tolk: one chunk per 50 ms).
  await Promise.all(
    Array.from({ length: streams }, () => complete(target, promptOf(20), TOKENS, true)),
  );
  const seconds = (performance.now() - start) / 1000;
  return secondsBeyondBusiest(before, await threadSeconds(target.pid), threads) / seconds * 100;
};

let prefillTokens = 0;
const PREFILL_WORDS = 700; // about 1,500 tokens with the bench model's vocabulary

/** Each server's resident memory once started and idle, in MB. */
const idleRss = new Map<Target, number>();

/**
 * Starts tolk and llama-server one after the other (`llamaFirst`: the other way round), noting
 * each one's idle memory.
 */
async function startBoth(
  starts: [tolk: () => Promise<Target>, llama: () => Promise<Target>],
  llamaFirst: boolean,
): Promise<[Target, Target]> {
  const started: Target[] = [];
  for (const index of llamaFirst ? [1, 0] : [0, 1]) started[index] = await starts[index]();
  for (const target of started) idleRss.set(target, (await memory(target.pid)).rss);
  return [started[0], started[1]];
}

/** Every measure asked for, on one pair of servers, each measure's rounds given to `pool`. */
async function measureAll(
  targets: [Target, Target],
  threads: number,
  pool: (measure: string, rounds: Rounds, digits?: number, withRatio?: boolean) => void,
): Promise<void> {
  const [tolk] = targets;
  // Warm-up: every slot generates once, so no measured round is a slot's first (tolk takes a
  // slot's KV memory as it fills, and llama.cpp's first touch of a page costs a fault).
  for (const target of targets) {
    await Promise.all(
      Array.from({ length: SLOTS }, () => complete(target, promptOf(20), TOKENS, false)),
    );
  }
  if (MEASURES.has("decode")) {
    console.error(`threads ${threads}: decode …`);
    pool(DECODE_MEASURE, await paired(targets, decodeRate, ROUNDS));
  }
  if (MEASURES.has("prefill")) {
    console.error(`threads ${threads}: prefill …`);
    prefillTokens = (await complete(tolk, promptOf(PREFILL_WORDS), 1, false)).promptTokens;
    pool(`prefill tok/s, ${PREFILL_WORDS}-word prompt`, await paired(targets, prefillRate, ROUNDS));
  }
  for (const streams of MEASURES.has("aggregate") ? STREAMS : []) {
    console.error(`threads ${threads}: aggregate, ${streams} streams …`);
    pool(aggregateMeasure(streams), await paired(targets, aggregateRate(streams), ROUNDS));
  }
  if (MEASURES.has("cpu")) {
    console.error(`threads ${threads}: CPU per token …`);
    pool(
      "CPU ms per token (prompt + output), 4 streams",
      await paired(targets, cpuPerToken(4), ROUNDS),
      2,
    );
  }
  if (MEASURES.has("threads")) {
    console.error(`threads ${threads}: CPU beside the computing threads …`);
    // Clock ticks of 10 ms over a 2–3 s round: a per-round ratio of such small shares is noise.
    const share = await paired(targets, otherThreadsShare(4, threads), ROUNDS);
    pool(
      `% of a core used by threads beyond the ${threads} busiest, 4 streamed requests`,
      share,
      1,
      false,
    );
  }
}

try {
  await Deno.stat(LLAMA_SERVER);
} catch {
  console.error(`bench:anchor skipped: no llama-server at ${LLAMA_SERVER}; run ${BUILD_SCRIPT}`);
  Deno.exit(0);
}
const model = await ensureBenchModel();
const loadAtStart = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
const rows: string[] = [];
const decodeByThreads: number[] = [];
const aggregateByThreads: number[] = [];
for (const threads of THREADS) {
  /** Every measure's rounds over all pairs, in the order measured. */
  const pooled = new Map<
    string,
    Rounds & { digits: number; withRatio: boolean; byPair: number[] }
  >();
  const pool = (measure: string, rounds: Rounds, digits = 1, withRatio = true) => {
    const all = pooled.get(measure) ??
      { tolk: [], llama: [], ratios: [], digits, withRatio, byPair: [] };
    all.tolk.push(...rounds.tolk);
    all.llama.push(...rounds.llama);
    all.ratios.push(...rounds.ratios);
    all.byPair.push(median(rounds.ratios));
    pooled.set(measure, all);
  };
  const rss = { tolk: [] as string[], llama: [] as string[] };
  for (let pair = 0; pair < PAIRS; pair++) {
    console.error(`threads ${threads}, pair ${pair + 1} of ${PAIRS}: starting both servers …`);
    const [tolk, llama] = await startBoth([
      () => startTolk(model, threads),
      () => startLlamaServer(model, threads, 2048, LLAMA_ARGS),
    ], pair % 2 === 1);
    try {
      await measureAll([tolk, llama], threads, pool);
      const after = { tolk: await memory(tolk.pid), llama: await memory(llama.pid) };
      rss.tolk.push(`${idleRss.get(tolk)!.toFixed(0)} → ${after.tolk.peak.toFixed(0)}`);
      rss.llama.push(`${idleRss.get(llama)!.toFixed(0)} → ${after.llama.peak.toFixed(0)}`);
    } finally {
      await tolk.stop();
      await llama.stop();
    }
  }
  for (const [measure, all] of pooled) {
    const [tolk, llama, ratio] = [median(all.tolk), median(all.llama), median(all.ratios)];
    rows.push(
      `| ${measure} | ${threads} | ${tolk.toFixed(all.digits)} | ${llama.toFixed(all.digits)} | ${
        all.withRatio ? `${percent(ratio)}${PAIRS > 1 ? byPair(all.byPair) : ""}` : ""
      } |`,
    );
    if (measure === DECODE_MEASURE) decodeByThreads.push(tolk);
    if (measure === aggregateMeasure(4)) aggregateByThreads.push(tolk);
  }
  rows.push(
    `| RSS MB idle → peak | ${threads} | ${rss.tolk.join(", ")} | ${rss.llama.join(", ")} | |`,
  );
}

const loadAtEnd = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
const cpu = (await Deno.readTextFile("/proc/cpuinfo")).match(/model name\s*:\s*(.*)/)?.[1];
console.log(`Model: random llama, 97.2M parameters, q8_0 (bench/.models/bench-100m-q8_0.gguf).
Machine: ${navigator.hardwareConcurrency} vCPU, ${cpu}. ${ROUNDS} alternating rounds on each of
${PAIRS} pair(s) of servers (started one after the other, the first alternating; both up at once),
greedy, exactly ${TOKENS} tokens per generation (${prefillTokens}-token prompt for prefill); each
figure is the median over all rounds, the ratio the median of per-round ratios.
llama-server: \`-t N -tb N -np ${SLOTS} -c ${2048 * SLOTS} --cache-ram 0${
  LLAMA_ARGS.map((arg) => ` ${arg}`).join("")
}\` (2048 tokens per slot,
tolk's context for this model); tolk: \`--threads N --max-concurrent-requests ${SLOTS}\`.
Load average (1, 5, 15 min): ${loadAtStart} at the start, ${loadAtEnd} at the end. Rounds run
again because other processes used more than ${
  OTHERS_LIMIT * 100
}% of a core meanwhile: ${roundsRedone()}.

| measure | threads | tolk | llama-server | tolk / llama-server |
|---|---|---|---|---|
${rows.join("\n")}`);

const slower = THREADS.slice(1).some((_, i) =>
  decodeByThreads[i + 1] < decodeByThreads[i] || aggregateByThreads[i + 1] < aggregateByThreads[i]
);
// Said only when a run measured more than one thread count (a run of one has nothing to compare).
if (decodeByThreads.length > 1 || aggregateByThreads.length > 1) {
  console.log(
    `\nMore threads never slower (decode, 4-stream aggregate; threads ${THREADS.join(", ")}): ${
      slower ? "NO" : "yes"
    } (decode ${decodeByThreads.map((v) => v.toFixed(0)).join(" → ")}, aggregate ${
      aggregateByThreads.map((v) => v.toFixed(0)).join(" → ")
    })`,
  );
}
if (slower) Deno.exitCode = 1;
