/**
 * Asks `URL/v1/health` every 50 ms until the epoch-ms deadline, then prints the answer times (ms)
 * as one JSON array. Run as its own process, so the load's client loop does not delay it.
 *
 * Open loop: a probe starts on its 50 ms tick even while earlier ones are unanswered, so a server
 * stall of 1 s counts as the ~20 slow answers a client polling on a schedule would see, not as the
 * one sample a wait-then-ask loop takes (which hides stalls from the p99).
 * Usage: deno run --allow-net bench/health_probe.ts URL DEADLINE_MS
 */
const [url, deadline] = [Deno.args[0], Number(Deno.args[1])];
const INTERVAL_MS = 50;
const probes: Promise<number>[] = [];

async function probe(): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/health`);
  await response.body?.cancel();
  return performance.now() - started;
}

for (let tick = Date.now(); tick < deadline; tick += INTERVAL_MS) {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, tick - Date.now())));
  probes.push(probe());
}
console.log(JSON.stringify(await Promise.all(probes)));
