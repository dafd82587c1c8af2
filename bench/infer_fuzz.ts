/**
 * A seeded mutation fuzzer for `tolk infer`: valid chat requests (bodies, headers, JSON Schemas)
 * mutated at random, sent to a real daemon, every answer checked against the oracles of
 * issue 15:
 *
 * - no 500 unless it is an `internal_error` the daemon logged (counted and reported);
 * - every error body is exactly `{"error":{"message","type","param","code"}}` with a contract
 *   code whose status is the one answered;
 * - every answer carries `x-request-id` (the client's own when it sent a safe one);
 * - the process stays alive and `/health` answers 200 within 100 ms throughout, probed from a
 *   worker thread so the fuzzer's own work does not count, against an idle control server so
 *   machine load does not count either (`infer_fuzz_prober.ts` says exactly what a stall is).
 *
 * `deno task fuzz:infer [--requests N] [--seed S] [--concurrency C]` is the long run (figures in
 * BENCHMARKS.md); `tests/app/inference_fuzz_test.ts` runs a short one on every change.
 */
import { parseArgs } from "node:util";
import { INFERENCE_ERROR_CODES } from "../errors/inference_errors.ts";
import {
  ChatCompletionChunkSchema,
  ChatCompletionSchema,
  ErrorBodySchema,
  HealthSchema,
  ModelListSchema,
  StatusSchema,
} from "../schemas/openai.ts";
import { type InferDaemon, startInferDaemon } from "../tests/support/infer_daemon.ts";
import { type FuzzCase, makeCase } from "./infer_fuzz_cases.ts";
import { seededRandom } from "../tests/support/seeded_random.ts";

/** Options of {@link runInferFuzz}. */
export interface InferFuzzOptions {
  requests: number;
  seed: number;
  /** Requests in flight at once (default 2; the daemon runs 4 generations, more get 503). */
  concurrency?: number;
  /**
   * A stall (see `infer_fuzz_prober.ts`) longer than this is a violation; default 100 ms, the
   * oracle of issue 15. The suite's short run uses a looser bound on this shared machine
   * (tests/app/inference_fuzz_test.ts says why); every stall is reported either way.
   */
  stallLimitMs?: number;
  /** Progress lines (none by default). */
  log?: (line: string) => void;
}

/** What a run found. */
export interface InferFuzzReport {
  requests: number;
  seconds: number;
  /** Answers by status. */
  statuses: Record<number, number>;
  /** Oracle violations, each with the case that caused it (seed + index reproduce it). */
  violations: string[];
  /** 500s that were a logged `internal_error` (allowed by the oracle, listed to be fixed). */
  loggedInternalErrors: string[];
  /** `/health` probes: count, failures, latency percentiles (ms) and stalls (see the prober). */
  health: {
    probes: number;
    failures: number;
    p50Ms: number;
    p99Ms: number;
    maxMs: number;
    stalls: Array<[number, number, number]>;
    /** Slow probes explained by machine load (the control server was slow too). */
    starved: number;
    /** Single slow answers while the control was fast (see the prober). */
    blips: number;
  };
  /** Peak RSS of the daemon, MB. */
  /** The daemon's peak resident memory (VmHWM), or null with the reason when it could not be read. */
  peakRssMb: number | string;
}

const SAFE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Starts a daemon, sends `requests` fuzzed requests, checks every answer, stops the daemon.
 *
 * @example
 * ```ts
 * const report = await runInferFuzz({ requests: 3000, seed: 1 });
 * assert.deepEqual(report.violations, []);
 * ```
 */
export async function runInferFuzz(options: InferFuzzOptions): Promise<InferFuzzReport> {
  const daemon = await startInferDaemon({ args: ["--max-request-bytes", "1048576"] });
  const prober = await startHealthProber(daemon.baseUrl);
  const report: InferFuzzReport = {
    requests: 0,
    seconds: 0,
    statuses: {},
    violations: [],
    loggedInternalErrors: [],
    health: {
      probes: 0,
      failures: 0,
      p50Ms: 0,
      p99Ms: 0,
      maxMs: 0,
      stalls: [],
      starved: 0,
      blips: 0,
    },
    peakRssMb: "not measured",
  };
  const random = seededRandom(options.seed);
  const started = performance.now();
  let next = 0;
  let exited = false;
  daemon.exited.then(() => exited = true);
  const worker = async () => {
    while (next < options.requests && !exited) {
      const index = next++;
      const fuzzCase = makeCase(random, daemon.baseUrl);
      const where = `seed ${options.seed} #${index} ${fuzzCase.describe}`;
      try {
        await checkAnswer(daemon, fuzzCase, where, report);
      } catch (error) {
        report.violations.push(`${where}: ${error instanceof Error ? error.message : error}`);
      }
      report.requests++;
      if (report.requests % 1000 === 0) {
        const seconds = ((performance.now() - started) / 1000).toFixed(0);
        options.log?.(
          `${report.requests} requests in ${seconds} s, ${report.violations.length} violations, ` +
            `${report.loggedInternalErrors.length} logged 500s, ${JSON.stringify(report.statuses)}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 2 }, worker));
  report.seconds = (performance.now() - started) / 1000;
  report.health = await prober.stop();
  if (exited) report.violations.push("the daemon exited during the run");
  const limit = options.stallLimitMs ?? 100;
  const over = report.health.stalls.filter(([, first, again]) => Math.min(first, again) >= limit);
  if (report.health.failures > 0 || over.length > 0) {
    report.violations.push(
      `/health: ${report.health.failures} failed probes, stalls ${
        JSON.stringify(over)
      } (oracle: 200 within ${limit} ms)`,
    );
  }
  report.peakRssMb = await peakRssMb(daemon.pid);
  const code = await daemon.stop();
  if (!exited && code !== 0) report.violations.push(`the daemon stopped with exit code ${code}`);
  return report;
}

async function checkAnswer(
  daemon: InferDaemon,
  fuzzCase: FuzzCase,
  where: string,
  report: InferFuzzReport,
): Promise<void> {
  const response = await fetch(fuzzCase.url, fuzzCase.init);
  const text = await response.text();
  report.statuses[response.status] = (report.statuses[response.status] ?? 0) + 1;
  const id = response.headers.get("x-request-id");
  if (!id || !SAFE_ID.test(id)) throw new Error(`no usable x-request-id (${id})`);
  const sent = new Headers(fuzzCase.init.headers).get("x-request-id");
  if (sent && SAFE_ID.test(sent) && id !== sent) throw new Error("x-request-id not echoed");
  if (response.status >= 400) return checkError(daemon, response.status, text, id, report, where);
  const type = response.headers.get("content-type") ?? "";
  if (response.status === 204) return; // CORS preflight is off; nothing else answers 204
  if (type.startsWith("text/event-stream")) return checkStream(text);
  const body = JSON.parse(text);
  const path = new URL(fuzzCase.url).pathname;
  const schema = path === "/health"
    ? HealthSchema
    : path === "/v1/models"
    ? ModelListSchema
    : path === "/v1/status"
    ? StatusSchema
    : ChatCompletionSchema;
  schema.parse(body);
}

function checkError(
  daemon: InferDaemon,
  status: number,
  text: string,
  id: string,
  report: InferFuzzReport,
  where: string,
): void {
  const raw = JSON.parse(text);
  const keys = Object.keys(raw?.error ?? {}).sort().join();
  if (Object.keys(raw).join() !== "error" || keys !== "code,message,param,type") {
    throw new Error(`error body is not exactly the service's shape: ${text.slice(0, 200)}`);
  }
  const body = ErrorBodySchema.parse(raw);
  const entry = INFERENCE_ERROR_CODES[body.error.code];
  if (entry.status !== status || entry.type !== body.error.type) {
    throw new Error(`${body.error.code} answered with ${status} ${body.error.type}`);
  }
  if (status !== 500) return;
  const logged = daemon.stderr.some((line) => line.includes(id) && /unexpected/i.test(line));
  if (!logged) throw new Error("500 without a logged internal_error");
  report.loggedInternalErrors.push(where);
}

function checkStream(text: string): void {
  if (!text.endsWith("\n\n")) throw new Error("stream does not end with a complete event");
  const events = text.slice(0, -2).split("\n\n");
  for (const event of events) {
    if (!event.startsWith("data: ")) throw new Error(`not a data event: ${event.slice(0, 40)}`);
  }
  const last = events.at(-1)!.slice(6);
  for (const event of events.slice(0, -1)) {
    ChatCompletionChunkSchema.parse(JSON.parse(event.slice(6)));
  }
  if (last !== "[DONE]") ErrorBodySchema.strict().parse(JSON.parse(last));
}

/** Probes `/health` from a worker thread every 20 ms until stopped. */
async function startHealthProber(baseUrl: string) {
  const control = await startControlServer();
  const worker = new Worker(new URL("./infer_fuzz_prober.ts", import.meta.url), { type: "module" });
  worker.postMessage({ baseUrl, controlUrl: control.url, intervalMs: 20 });
  const stop = () =>
    new Promise<InferFuzzReport["health"]>((resolve) => {
      worker.onmessage = (event) => {
        worker.terminate();
        const { probes, failures, latencies, stalls, starved, blips } = event.data;
        const sorted = (latencies as number[]).sort((a, b) => a - b);
        const at = (q: number) =>
          round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
        resolve({
          probes,
          failures,
          p50Ms: at(0.5),
          p99Ms: at(0.99),
          maxMs: at(1),
          stalls,
          starved,
          blips,
        });
      };
      worker.postMessage("stop");
    });
  return {
    stop: async () => {
      const report = await stop();
      await control.stop();
      return report;
    },
  };
}

/** An idle process answering 200 to everything: the prober's yardstick for machine load. */
async function startControlServer() {
  const process = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => " +
      "console.log(port) }, () => new Response('ok'))",
    ],
    stdout: "piped",
    stderr: "null",
    stdin: "null",
  }).spawn();
  const reader = process.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("\n")) seen += (await reader.read()).value ?? "";
  reader.releaseLock();
  process.stdout.cancel().catch(() => {});
  return {
    url: `http://127.0.0.1:${seen.trim()}/`,
    stop: async () => {
      process.kill("SIGTERM");
      await process.status;
    },
  };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/**
 * Deno reads `/proc/<pid>` only with `--allow-all` (the task grants it); without it, or once the
 * process is gone, the report says why instead of a 0 that reads like a figure.
 */
async function peakRssMb(pid: number): Promise<number | string> {
  try {
    const status = await Deno.readTextFile(`/proc/${pid}/status`);
    const kilobytes = status.match(/VmHWM:\s+(\d+) kB/)?.[1];
    return kilobytes ? Math.round(Number(kilobytes) / 1024) : "unknown: no VmHWM line";
  } catch (error) {
    return `unknown: ${error instanceof Error ? error.message : error}`;
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      requests: { type: "string", default: "100000" },
      seed: { type: "string", default: "1" },
      concurrency: { type: "string", default: "2" },
    },
  });
  const report = await runInferFuzz({
    requests: Number(values.requests),
    seed: Number(values.seed),
    concurrency: Number(values.concurrency),
    log: (line) => console.error(line),
  });
  console.log(JSON.stringify({ ...report, violations: report.violations.slice(0, 50) }, null, 2));
  Deno.exit(report.violations.length === 0 ? 0 : 1);
}
