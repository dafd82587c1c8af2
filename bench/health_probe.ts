/**
 * Asks `URL/v1/health` every 50 ms for DURATION_MS, then prints the answer times (ms, in the order
 * the probes were sent, one per 50 ms tick) as one JSON array. Run as its own process, so the
 * load's client loop does not delay it.
 *
 * It first asks once and prints `ready` on a line of its own, and its clock starts after that: the
 * load starts when the probe is ready, so the probes time the server, not this process starting
 * (its first fetch compiled and set up the HTTP client, 150–250 ms while the load began, and set
 * the p99 of 400 probes on its own: BENCHMARKS.md, WebSocket load).
 *
 * Open loop: a probe starts on its 50 ms tick even while earlier ones are unanswered, so a server
 * stall of 1 s counts as the ~20 slow answers a client polling on a schedule would see, not as the
 * one sample a wait-then-ask loop takes (which hides stalls from the p99).
 * Also prints the CPU seconds it used while probing (`cpuSeconds`), which the bench subtracts
 * from the machine's busy time to see what other processes took.
 * Usage: deno run --allow-net bench/health_probe.ts URL DURATION_MS
 */
import { cpuUsage } from "node:process";

const [url, duration] = [Deno.args[0], Number(Deno.args[1])];
const INTERVAL_MS = 50;
const probes: Promise<number>[] = [];

async function probe(): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/health`);
  await response.body?.cancel();
  return performance.now() - started;
}

await probe();
console.log("ready");
const cpuAtStart = cpuUsage();
const deadline = Date.now() + duration;
for (let tick = Date.now(); tick < deadline; tick += INTERVAL_MS) {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, tick - Date.now())));
  probes.push(probe());
}
const times = await Promise.all(probes);
const cpu = cpuUsage(cpuAtStart);
console.log(JSON.stringify({ times, cpuSeconds: (cpu.user + cpu.system) / 1e6 }));
