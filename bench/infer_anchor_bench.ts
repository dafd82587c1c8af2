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
 *   deno task bench:anchor [--rounds 5] [--threads 1,2] [--tokens 128]
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
import {
  cpuSeconds,
  machineBusySeconds,
  memory,
  secondsBeyondBusiest,
  threadSeconds,
} from "./process_cpu.ts";

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
  },
});
const ROUNDS = Number(args.rounds ?? 5);
const TOKENS = Number(args.tokens ?? 128);
const THREADS = (args.threads ?? "1,2").split(",").map(Number);
const MEASURES = new Set((args.measures ?? "decode,prefill,aggregate,cpu").split(","));
const STREAMS = (args.streams ?? "1,2,4").split(",").map(Number);
/** Extra llama-server arguments, e.g. `--llama-args "--load-mode none"` (stated in the output). */
const LLAMA_ARGS = args["llama-args"]?.split(/\s+/).filter(Boolean) ?? [];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

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
 * Waits until neither server uses the CPU (at most 5 s): llama-server's pool workers keep spinning
 * for about half a second after its last request (ggml's `poll` level 50), which took a core from
 * whichever server was measured next.
 */
async function quiet(targets: readonly Target[]): Promise<void> {
  const deadline = Date.now() + 5000;
  let last = await Promise.all(targets.map((target) => cpuSeconds(target.pid)));
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = await Promise.all(targets.map((target) => cpuSeconds(target.pid)));
    if (now.every((seconds, i) => seconds === last[i])) return;
    last = now;
  }
}

/** CPU seconds used by others than `target` and this bench (the idle server counts as other). */
async function othersSeconds(target: Target): Promise<number> {
  const ours = (await cpuSeconds(target.pid)) + (await cpuSeconds(Deno.pid));
  return (await machineBusySeconds()) - ours;
}

/**
 * Share of one core that other processes may use during a measurement before its round is run
 * again. On this shared 2-core machine, helpers' short unlocked jobs (a focused test, `deno
 * check`) took 40–100% of a core in about a third of the rounds: a server measured then lost a
 * core (llama-server's two threads fell to 8–54 tok/s at their spin barriers, tolk's fell back to
 * one thread), and with 5 rounds the median ratio swung between 66% and 97% on the same two
 * servers within a minute. Quiet measurements read -4% to +4% here (tick rounding).
 */
const OTHERS_LIMIT = 0.1;
let redone = 0;

/**
 * Runs `measure` on both targets each round, alternating who goes first. A round in which other
 * processes used more than {@link OTHERS_LIMIT} of a core during either measurement is run again
 * (at most `ROUNDS` extra times per measure, after which disturbed rounds count as they are).
 */
async function paired(
  targets: [Target, Target],
  measure: (target: Target) => Promise<number>,
): Promise<{ tolk: number; llama: number; ratio: number }> {
  const values: Record<string, number[]> = { tolk: [], "llama-server": [] };
  const ratios: number[] = [];
  let retries = ROUNDS;
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...targets].reverse() : targets;
    const pair: Record<string, number> = {};
    let disturbed = false;
    for (const target of order) {
      await quiet(targets);
      const [others, start] = [await othersSeconds(target), performance.now()];
      pair[target.name] = await measure(target);
      const seconds = (performance.now() - start) / 1000;
      disturbed ||= ((await othersSeconds(target)) - others) / seconds > OTHERS_LIMIT;
    }
    if (disturbed && retries-- > 0) {
      redone++;
      round--;
      continue;
    }
    values.tolk.push(pair.tolk);
    values["llama-server"].push(pair["llama-server"]);
    ratios.push(pair.tolk / pair["llama-server"]);
  }
  return {
    tolk: median(values.tolk),
    llama: median(values["llama-server"]),
    ratio: median(ratios),
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

const PREFILL_WORDS = 700; // about 1,500 tokens with the bench model's vocabulary

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
let prefillTokens = 0;
for (const threads of THREADS) {
  console.error(`threads ${threads}: starting both servers …`);
  const tolk = await startTolk(model, threads);
  const llama = await startLlamaServer(model, threads, 2048, LLAMA_ARGS);
  try {
    const targets: [Target, Target] = [tolk, llama];
    const idle = { tolk: await memory(tolk.pid), llama: await memory(llama.pid) };
    for (const target of targets) await complete(target, promptOf(20), 8, false); // warm-up
    const row = (measure: string, r: { tolk: number; llama: number; ratio: number }, digits = 1) =>
      rows.push(
        `| ${measure} | ${threads} | ${r.tolk.toFixed(digits)} | ${r.llama.toFixed(digits)} | ${
          Number.isNaN(r.ratio) ? "" : `${(r.ratio * 100).toFixed(0)}%`
        } |`,
      );
    if (MEASURES.has("decode")) {
      console.error(`threads ${threads}: decode …`);
      const decode = await paired(targets, decodeRate);
      row("decode tok/s, 1 stream", decode);
      decodeByThreads.push(decode.tolk);
    }
    if (MEASURES.has("prefill")) {
      console.error(`threads ${threads}: prefill …`);
      prefillTokens = (await complete(tolk, promptOf(PREFILL_WORDS), 1, false)).promptTokens;
      row(`prefill tok/s, ${prefillTokens}-token prompt`, await paired(targets, prefillRate));
    }
    for (const streams of MEASURES.has("aggregate") ? STREAMS : []) {
      console.error(`threads ${threads}: aggregate, ${streams} streams …`);
      const aggregate = await paired(targets, aggregateRate(streams));
      row(`aggregate tok/s, ${streams} stream${streams > 1 ? "s" : ""}`, aggregate);
      if (streams === 4) aggregateByThreads.push(aggregate.tolk);
    }
    if (MEASURES.has("cpu")) {
      console.error(`threads ${threads}: CPU per token …`);
      row(
        "CPU ms per token (prompt + output), 4 streams",
        await paired(targets, cpuPerToken(4)),
        2,
      );
    }
    if (MEASURES.has("threads")) {
      console.error(`threads ${threads}: CPU beside the computing threads …`);
      // Clock ticks of 10 ms over a 2–3 s round: a per-round ratio of such small shares is noise.
      const share = await paired(targets, otherThreadsShare(4, threads));
      row(`% of a core used by threads beyond the ${threads} busiest, 4 streamed requests`, {
        ...share,
        ratio: NaN,
      });
    }
    const after = { tolk: await memory(tolk.pid), llama: await memory(llama.pid) };
    rows.push(
      `| RSS MB idle → peak | ${threads} | ${idle.tolk.rss.toFixed(0)} → ${
        after.tolk.peak.toFixed(0)
      } | ${idle.llama.rss.toFixed(0)} → ${after.llama.peak.toFixed(0)} | |`,
    );
  } finally {
    await tolk.stop();
    await llama.stop();
  }
}

const loadAtEnd = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
const cpu = (await Deno.readTextFile("/proc/cpuinfo")).match(/model name\s*:\s*(.*)/)?.[1];
console.log(`Model: random llama, 97.2M parameters, q8_0 (bench/.models/bench-100m-q8_0.gguf).
Machine: ${navigator.hardwareConcurrency} vCPU, ${cpu}. ${ROUNDS} alternating rounds, both servers
up at once, greedy, exactly ${TOKENS} tokens per generation (${prefillTokens}-token prompt for
prefill); each figure is the median over rounds, the ratio the median of per-round ratios.
llama-server: \`-t N -tb N -np ${SLOTS} -c ${2048 * SLOTS} --cache-ram 0${
  LLAMA_ARGS.map((arg) => ` ${arg}`).join("")
}\` (2048 tokens per slot,
tolk's context for this model); tolk: \`--threads N --max-concurrent-requests ${SLOTS}\`.
Load average (1, 5, 15 min): ${loadAtStart} at the start, ${loadAtEnd} at the end. Rounds run
again because other processes used more than ${OTHERS_LIMIT * 100}% of a core meanwhile: ${redone}.

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
