/**
 * A large TMX import (a CAT tool's memory of tens of thousands of units) must not hold the
 * service: node:sqlite is synchronous, and one transaction of 200,000 entries held every other
 * request for 22 s. The import writes in batches and lets other requests in between them.
 *
 * The service runs as its own `tolk serve` process: a client in the service's own event loop
 * needs turns of its own to send and read, and could be starved by the very batches under test.
 */
import assert from "node:assert/strict";
import { HealthResponseSchema } from "../../../schemas/translation.ts";
import { MemoryImportResponseSchema, MemoryPageSchema } from "../../../schemas/memory.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { withServeProcess } from "../../support/serve_process.ts";
import { runTolkProcess } from "../../support/tolk_process.ts";
import { syntheticSource, syntheticTarget, syntheticTmx } from "../../support/synthetic_tmx.ts";

const UNITS = 30_000;

Deno.test("a large TMX import lets other requests through while it writes, and imports every unit", async () => {
  await withServeProcess([], async (server, env) => {
    const enabled = await runTolkProcess(["api", "enable"], env);
    assert.equal(enabled.code, 0, enabled.stderr);
    const token = enabled.stdout.trim();
    const request = (method: string, path: string, body?: string, headers = {}) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { "x-svc-token": token, ...headers },
        body,
      });
    let importDone = false;
    const importing = request("POST", "/v1/memory/import", syntheticTmx(UNITS), {
      "content-type": "application/x-tmx+xml",
    }).then(async (response) => {
      importDone = true;
      return await expectBody(response, 200, MemoryImportResponseSchema);
    });
    // Wait until the first unit is in the memory: the import is writing.
    for (;;) {
      const page = await expectBody(
        await request(
          "GET",
          `/v1/memory/entries?q=${encodeURIComponent(syntheticSource(0))}&limit=1`,
        ),
        200,
        MemoryPageSchema,
      );
      if (page.data.length > 0 || importDone) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const health = await fetch(`${server.url}/v1/health`);
    await expectBody(health, 200, HealthResponseSchema);
    assert.equal(importDone, false, "a request was answered while the import was still writing");
    assert.deepEqual(await importing, { imported: UNITS, skipped: 0 });
    const last = await expectBody(
      await request(
        "GET",
        `/v1/memory/entries?q=${encodeURIComponent(syntheticSource(UNITS - 1))}`,
      ),
      200,
      MemoryPageSchema,
    );
    assert.deepEqual(last.data.map((entry) => entry.target), [
      syntheticTarget(UNITS - 1),
    ]);
  });
});
