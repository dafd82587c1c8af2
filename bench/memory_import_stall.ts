/**
 * How long a large TMX import holds the service's other requests: a `tolk serve` process on
 * loopback, one import of N synthetic units, and, from this process, GET /v1/health every 10 ms
 * while it runs: the longest wait for an answer is what another client of the service feels.
 *
 * Run: deno task bench:import [UNITS]   (default 200,000; BENCHMARKS.md)
 */
import { withServeProcess } from "../tests/support/serve_process.ts";
import { runTolkProcess } from "../tests/support/tolk_process.ts";
import { syntheticTmx } from "../tests/support/synthetic_tmx.ts";

const units = Number(Deno.args[0] ?? 200000);

const tmx = syntheticTmx(units);
await withServeProcess([], async (server, env) => {
  const token = (await runTolkProcess(["api", "enable"], env)).stdout.trim();
  let importing = true;
  const started = performance.now();
  const answer = fetch(`${server.url}/v1/memory/import`, {
    method: "POST",
    headers: { "x-svc-token": token, "content-type": "application/x-tmx+xml" },
    body: tmx,
  }).then(async (response) => {
    importing = false;
    return await response.text();
  });
  const waits: number[] = [];
  while (importing) {
    const asked = performance.now();
    await (await fetch(`${server.url}/v1/health`)).body?.cancel();
    waits.push(performance.now() - asked);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const total = performance.now() - started;
  waits.sort((a, b) => a - b);
  const at = (share: number) => Math.round(waits[Math.floor((waits.length - 1) * share)]);
  console.log(
    `units ${units}, ${(tmx.length / 1e6).toFixed(1)} MB: import ${Math.round(total)} ms; ` +
      `GET /v1/health meanwhile (${waits.length} asked): median ${at(0.5)} ms, ` +
      `p99 ${at(0.99)} ms, longest ${at(1)} ms`,
    await answer,
  );
});
