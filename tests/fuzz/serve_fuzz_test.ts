import assert from "node:assert/strict";
import { fuzzService } from "../support/serve_fuzzer.ts";
import { withTranslationService } from "../support/translation_service.ts";

// The short run of the seeded fuzzer; the long run is `deno task fuzz:serve` (BENCHMARKS.md).
Deno.test("tolk serve answers 1,000 mutated requests and 250 mutated frames with every oracle holding (seed 1)", async () => {
  await withTranslationService(async (service) => {
    const report = await fuzzService(service, { seed: 1, requests: 1000 });
    assert.deepEqual(report.failures, []);
    assert.equal(report.requests, 1000);
    assert.equal(report.frames, 250);
    assert.ok(report.statuses[200] > 0 && report.statuses[400] > 0, JSON.stringify(report));
  });
});
