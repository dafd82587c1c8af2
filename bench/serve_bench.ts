/**
 * Benchmark of `tolk serve` (issue 2, point 11). Needs `wrk` (apt-get install wrk).
 *
 * (a) GET /v1/health: the full app vs a bare Hono app answering the same JSON;
 * (b) POST /v1/translate, 10 short items, bench echo engine: the full app vs a minimal Hono
 *     handler (parse, detect each item, echo engine, JSON) — both in the same run;
 * at 1 and 50 connections; then start-to-listening time and idle RSS of the real `tolk serve`.
 * A third target, the minimal app plus the contract's two response headers, shows how much of
 * the gap those headers alone cost in Deno's HTTP server.
 * Usage: deno task bench:serve [--seconds 5] [--rounds 5] [--startup-only]
 */
import { join } from "node:path";

const numberFlag = (name: string, fallback: number) =>
  Deno.args.includes(name) ? Number(Deno.args[Deno.args.indexOf(name) + 1]) : fallback;
const SECONDS = numberFlag("--seconds", 5);
const ROUNDS = numberFlag("--rounds", 5);
const TOKEN = "bench-token-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
const ITEMS = [
  "Good morning, how are you?",
  "Bonjour tout le monde",
  "Guten Abend, meine Freunde",
  "¿Dónde está la estación?",
  "Terima kasih banyak",
  "Cảm ơn bạn rất nhiều",
  "今天天气很好",
  "ありがとうございます",
  "안녕하세요 반갑습니다",
  "สวัสดีครับ",
];
const DENO = Deno.execPath();
/** The V8 flags of the `tolk` and `start` tasks; both targets run with them, so the comparison is fair. */
const V8_FLAGS = "--v8-flags=--max-semi-space-size=2,--no-memory-pool";
const here = (path: string) => new URL(path, import.meta.url).pathname;

interface WrkResult {
  rps: number;
  p50: number;
  p99: number;
}

/** Whether `command args` exited 0, or null when the program is not installed. */
async function exitedZero(command: string, args: string[]): Promise<boolean | null> {
  try {
    return (await new Deno.Command(command, { args, stdout: "null", stderr: "null" }).output())
      .success;
  } catch (error) {
    // A missing program throws at once rather than rejecting.
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/**
 * `command args` pinned to one CPU with taskset when it exists: servers on CPU 0, wrk on CPU 1.
 * Unpinned, the scheduler moving the two across the 2 cores made runs swing by a factor of two.
 */
const HAS_TASKSET = (await exitedZero("taskset", ["-V"])) === true;
function onCpu(cpu: number, command: string, args: string[]): [string, string[]] {
  return HAS_TASKSET ? ["taskset", ["-c", String(cpu), command, ...args]] : [command, args];
}

async function startTarget(target: string, config: string) {
  const [command, args] = onCpu(0, DENO, [
    "run",
    "-A",
    V8_FLAGS,
    here("./serve_targets.ts"),
    target,
    config,
  ]);
  const child = new Deno.Command(command, {
    args,
    stdout: "piped",
    stderr: "null",
    env: { DENO_NO_UPDATE_CHECK: "1" },
  }).spawn();
  const url = await firstLine(child.stdout);
  return { url: url.replace("listening on ", ""), child };
}

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("process ended before its first line");
    text += value;
  }
  reader.releaseLock();
  return text.split("\n")[0];
}

function toMs(value: string): number {
  const match = value.match(/([\d.]+)(us|ms|s)/)!;
  const n = Number(match[1]);
  return match[2] === "us" ? n / 1000 : match[2] === "s" ? n * 1000 : n;
}

async function wrk(
  url: string,
  connections: number,
  script?: string,
  seconds = SECONDS,
): Promise<WrkResult> {
  const args = ["-t1", `-c${connections}`, `-d${seconds}s`, "--latency", url];
  if (script) args.unshift("-s", script);
  const [command, pinnedArgs] = onCpu(1, "wrk", args);
  const out = new TextDecoder().decode(
    (await new Deno.Command(command, { args: pinnedArgs }).output()).stdout,
  );
  const rps = Number(out.match(/Requests\/sec:\s+([\d.]+)/)![1]);
  const p50 = toMs(out.match(/\s50%\s+(\S+)/)![1]);
  const p99 = toMs(out.match(/\s99%\s+(\S+)/)![1]);
  if (/Non-2xx/.test(out)) throw new Error(`non-2xx answers from ${url}:\n${out}`);
  return { rps, p50, p99 };
}

async function startupAndRss(dir: string): Promise<{ startMs: number[]; rssMb: number[] }> {
  const startMs: number[] = [];
  const rssMb: number[] = [];
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    const child = new Deno.Command(DENO, {
      args: [
        "run",
        "-A",
        V8_FLAGS,
        here("../main.ts"),
        "serve",
        "--port",
        "0",
        "--config",
        join(dir, "settings.json"),
        "--data-dir",
        dir,
      ],
      stdout: "piped",
      stderr: "null",
      env: { DENO_NO_UPDATE_CHECK: "1" },
    }).spawn();
    await firstLine(child.stdout);
    startMs.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 500)); // let start-up garbage settle
    // ps, not /proc/PID/status: Deno refuses /proc reads without --allow-all.
    const ps = await new Deno.Command("ps", { args: ["-o", "rss=", "-p", String(child.pid)] })
      .output();
    rssMb.push(Number(new TextDecoder().decode(ps.stdout).trim()) / 1024);
    child.kill("SIGTERM");
    await child.status;
  }
  return { startMs, rssMb };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (n: number) => n.toFixed(n < 10 ? 2 : 0);

const dir = await Deno.makeTempDir({ prefix: "tolk-bench-" });
const config = join(dir, "settings.json");
await Deno.writeTextFile(config, JSON.stringify({ api: { enabled: true, token: TOKEN } }));
const script = join(dir, "translate.lua");
await Deno.writeTextFile(
  script,
  `wrk.method = "POST"
wrk.body = ${JSON.stringify(JSON.stringify({ target: "en", texts: ITEMS }))}
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-Svc-Token"] = "${TOKEN}"
`,
);

/**
 * One endpoint at one connection count: every target runs once per round, in rotating order,
 * and the ratio is taken per round — this VM's throughput drifts by a factor of two within
 * minutes, so only runs made side by side compare.
 */
async function compare(
  urls: Record<Target, string>,
  targets: readonly Target[],
  path: string,
  connections: number,
  lua?: string,
): Promise<Record<Target, { rps: number; p50: number; p99: number; ratio: number }>> {
  const runs = new Map<Target, WrkResult[]>(targets.map((target) => [target, []]));
  for (const target of targets) await wrk(urls[target] + path, connections, lua, 2); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    const order = targets.map((_, i) => targets[(i + round) % targets.length]);
    for (const target of order) {
      runs.get(target)!.push(await wrk(urls[target] + path, connections, lua));
    }
  }
  const baselineRuns = runs.get("baseline")!;
  return Object.fromEntries(targets.map((target) => {
    const own = runs.get(target)!;
    return [target, {
      rps: median(own.map((run) => run.rps)),
      p50: median(own.map((run) => run.p50)),
      p99: median(own.map((run) => run.p99)),
      ratio: median(own.map((run, i) => run.rps / baselineRuns[i].rps)),
    }];
  })) as Record<Target, { rps: number; p50: number; p99: number; ratio: number }>;
}

// Without wrk the first comparison would stop with a TypeError and leave its servers running.
if (!Deno.args.includes("--startup-only") && (await exitedZero("wrk", ["-v"])) === null) {
  console.error(
    "bench:serve skipped: no wrk on PATH (apt-get install wrk); --startup-only runs without it",
  );
  Deno.exit(0);
}

type Target = "tolk" | "baseline" | "baseline-headers";
const TARGETS: readonly Target[] = ["tolk", "baseline", "baseline-headers"];
const rows: string[] = [];
const connectionCounts = Deno.args.includes("--startup-only") ? [] : [1, 50];
const servers = connectionCounts.length === 0
  ? []
  : await Promise.all(TARGETS.map((target) => startTarget(target, config)));
const urls = Object.fromEntries(TARGETS.map((target, i) => [target, servers[i]?.url])) as Record<
  Target,
  string
>;
for (const connections of connectionCounts) {
  for (
    const [name, path, lua] of [["health", "/v1/health", undefined], [
      "translate",
      "/v1/translate",
      script,
    ]] as const
  ) {
    const results = await compare(urls, TARGETS, path, connections, lua);
    const { tolk, baseline } = results;
    const withHeaders = results["baseline-headers"];
    rows.push(
      `| ${name} | ${connections} | ${fmt(tolk.rps)} | ${fmt(baseline.rps)} | **${
        (100 * tolk.ratio).toFixed(1)
      }%** | ${(100 * withHeaders.ratio).toFixed(1)}% | ${
        (100 * tolk.ratio / withHeaders.ratio).toFixed(1)
      }% | ${fmt(tolk.p50)} / ${fmt(tolk.p99)} | ${fmt(baseline.p50)} / ${fmt(baseline.p99)} |`,
    );
    console.error(rows.at(-1));
  }
}
for (const { child } of servers) {
  child.kill("SIGTERM");
  await child.status;
}
const { startMs, rssMb } = await startupAndRss(dir);
await Deno.remove(dir, { recursive: true });

console.log(
  `${ROUNDS} rounds of ${SECONDS} s per target${
    HAS_TASKSET ? ", servers on CPU 0 and wrk on CPU 1" : ""
  }; req/s and latencies are medians over rounds, ratios are medians of per-round ratios.

| endpoint | connections | tolk req/s | minimal req/s | tolk / minimal | minimal + contract headers / minimal | tolk / minimal + headers | tolk p50 / p99 ms | minimal p50 / p99 ms |
|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}

start to \`listening\`: median ${fmt(median(startMs))} ms (runs: ${startMs.map(fmt).join(", ")})
idle RSS, no model loaded: median ${fmt(median(rssMb))} MB (runs: ${rssMb.map(fmt).join(", ")})`,
);
