/**
 * The short run of the `tolk infer` fuzzer (issue 15, points 11–12): a few thousand seeded,
 * mutated requests against a real daemon, every oracle checked: no unlogged 500, every error
 * body exactly the service's shape with its contract status, `x-request-id` on every answer,
 * the process alive, `/health` always 200. The long run is `deno task fuzz:infer`, with the
 * strict 100 ms `/health` oracle (BENCHMARKS.md).
 *
 * Here a `/health` stall fails the test from 1 s: this suite shares two cores with seven other
 * sessions' suites (load average ~20), where the daemon's own event loop, busy with two
 * generations, answered twice in a row in 100–340 ms while an idle control process answered at
 * once. That is reported, not hidden: the figures are in BENCHMARKS.md. The freeze the oracle
 * exists for (17 s on one schema) fails at any of these bounds.
 */
import assert from "node:assert/strict";
import { runInferFuzz } from "../../bench/infer_fuzz.ts";

const REQUESTS = 2000;
const SEED = 20261123;

Deno.test(`tolk infer keeps every oracle under ${REQUESTS} fuzzed requests (seed ${SEED})`, async () => {
  const report = await runInferFuzz({ requests: REQUESTS, seed: SEED, stallLimitMs: 1000 });
  assert.deepEqual(report.violations, [], JSON.stringify(report.statuses));
  assert.equal(report.requests, REQUESTS);
  assert.ok(report.health.probes >= 10, `${report.health.probes} health probes`);
  if (report.loggedInternalErrors.length > 0 || report.health.stalls.length > 0) {
    console.error(JSON.stringify({
      loggedInternalErrors: report.loggedInternalErrors,
      health: report.health,
    }));
  }
});
