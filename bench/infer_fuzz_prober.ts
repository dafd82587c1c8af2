/**
 * Worker of the `tolk infer` fuzzer: probes `/health` on its own thread, so the fuzzer's work
 * never delays a probe, and reports when told to stop.
 *
 * The daemon shares a 2-core machine with other processes, so a late answer is as often the
 * scheduler as the daemon. A probe slower than 100 ms is therefore followed at once by a probe of
 * a control server (an idle process answering 200 to everything) and a second `/health` probe: a
 * stall is two slow `/health` answers in a row while the control answers within 50 ms, i.e. the
 * daemon's event loop was held while the machine was not starved. One slow answer alone is
 * counted as a blip (reported, not a violation); slow probes with a slow control count as load.
 */
/// <reference lib="deno.worker" />

const LIMIT_MS = 100;
const CONTROL_FAST_MS = 50;

let stopped = false;
const report = {
  probes: 0,
  failures: 0,
  /** Every `/health` latency, ms (for percentiles). */
  latencies: [] as number[],
  /** `[ms since start, /health ms, repeated /health ms]` of each stall. */
  stalls: [] as Array<[number, number, number]>,
  /** Slow probes the control showed to be machine load. */
  starved: 0,
  /** Single slow answers with a fast control (the next probe was fast). */
  blips: 0,
};

async function timed(url: string): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now();
  try {
    const response = await fetch(url);
    await response.body?.cancel();
    return { ms: performance.now() - started, ok: response.status === 200 };
  } catch {
    return { ms: performance.now() - started, ok: false };
  }
}

self.onmessage = async (event: MessageEvent) => {
  if (event.data === "stop") {
    stopped = true;
    return;
  }
  const { baseUrl, controlUrl, intervalMs } = event.data as {
    baseUrl: string;
    controlUrl: string;
    intervalMs: number;
  };
  const began = performance.now();
  while (!stopped) {
    const at = performance.now() - began;
    const health = await timed(`${baseUrl}/health`);
    report.probes++;
    report.latencies.push(health.ms);
    if (!health.ok) report.failures++;
    if (health.ms >= LIMIT_MS) {
      const control = await timed(controlUrl);
      if (control.ms >= CONTROL_FAST_MS) report.starved++;
      else {
        const again = await timed(`${baseUrl}/health`);
        if (again.ms < LIMIT_MS) report.blips++;
        else report.stalls.push([Math.round(at), Math.round(health.ms), Math.round(again.ms)]);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  self.postMessage(report);
};
