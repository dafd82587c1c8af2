/**
 * Asks `URL/v1/health` every 50 ms until the epoch-ms deadline, then prints the answer times (ms)
 * as one JSON array. Run as its own process, so the load's client loop does not delay it.
 * Usage: deno run --allow-net bench/health_probe.ts URL DEADLINE_MS
 */
const [url, deadline] = [Deno.args[0], Number(Deno.args[1])];
const times: number[] = [];
while (Date.now() < deadline) {
  const started = performance.now();
  const response = await fetch(`${url}/v1/health`);
  await response.body?.cancel();
  times.push(performance.now() - started);
  await new Promise((resolve) => setTimeout(resolve, 50));
}
console.log(JSON.stringify(times));
