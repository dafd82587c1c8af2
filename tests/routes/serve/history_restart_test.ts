/**
 * The history outlives the process: rows are written in batches on the turn after their answer
 * (storage/history_store.ts), so a SIGTERM while requests are in flight must still leave every
 * answered request in the database that the next `tolk serve` reads.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { HistoryPageSchema } from "../../../schemas/history.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { startHoldingStandIn } from "../../support/ollama_stand_in.ts";
import { serveArgs, startTolkServer, waitForStderrLine } from "../../support/tolk_process.ts";
import { FIXTURE_MODELS_DIR, TEST_TOKEN } from "../../support/translation_service.ts";

Deno.test("tolk serve keeps every answered request in the history across a SIGTERM with requests in flight", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tolk-history-restart-" });
  const held = startHoldingStandIn();
  try {
    const config = join(dir, "settings.json");
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        api: { enabled: true, token: TEST_TOKEN },
        engines: { "engine-one": { base_url: held.runner.baseUrl }, order: ["engine-one"] },
      }),
    );
    const args = serveArgs({ config, dataDir: join(dir, "data"), modelsDir: FIXTURE_MODELS_DIR });
    const first = await startTolkServer(args);
    const texts = Array.from({ length: 6 }, (_, i) => `Bonjour numéro ${i}, comment allez-vous ?`);
    // The runner holds the engine's work: requests are in flight at the signal, and are
    // answered only once the service is draining.
    const inFlight = texts.map((text) =>
      fetch(`${first.url}/v1/compat/libre/translate`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          q: Array(8).fill(text),
          source: "fr",
          target: "en",
          api_key: TEST_TOKEN,
        }),
      }).then(async (response) => {
        await response.body?.cancel();
        return response.status === 200 ? text : null;
      }, () => null)
    );
    await held.received();
    const stopped = first.stop();
    await waitForStderrLine(first, /^shutting down$/);
    held.release();
    assert.equal(await stopped, 0);
    const answered = (await Promise.all(inFlight)).filter((text) => text !== null);
    assert.ok(answered.length > 0, "the service let requests in flight finish");

    const second = await startTolkServer(args);
    try {
      const page = await expectBody(
        await fetch(`${second.url}/v1/history?limit=200`, {
          headers: { "x-svc-token": TEST_TOKEN },
        }),
        200,
        HistoryPageSchema,
      );
      assert.deepEqual(
        page.data.map((row) => row.texts[0]).sort(),
        answered.sort(),
        "every answered request, and only those",
      );
      assert.ok(page.data.every((row) => row.client === "libretranslate"));
    } finally {
      assert.equal(await second.stop(), 0);
    }
  } finally {
    held.release();
    await held.runner.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
