import assert from "node:assert/strict";
import { join } from "node:path";
import { postJson } from "../support/http_assertions.ts";
import { startHoldingStandIn } from "../support/ollama_stand_in.ts";
import { FRENCH } from "../support/sample_texts.ts";
import { serveArgs, startTolkServer, waitForStderrLine } from "../support/tolk_process.ts";
import { FIXTURE_MODELS_DIR, TEST_TOKEN } from "../support/translation_service.ts";

const IN_FLIGHT = 5;

Deno.test("tolk serve writes the access line of every request it drains on SIGTERM", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tolk-shutdown-test-" });
  const held = startHoldingStandIn();
  try {
    const config = join(dir, "settings.json");
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        api: { enabled: true, token: TEST_TOKEN },
        engines: { "engine-one": { base_url: held.runner.baseUrl } },
      }),
    );
    const server = await startTolkServer(
      serveArgs({ config, dataDir: join(dir, "data"), modelsDir: FIXTURE_MODELS_DIR }),
    );
    // The runner holds the engine's work: the requests are in flight at the signal, and are
    // answered only once the service is draining.
    const answers = Array.from(
      { length: IN_FLIGHT },
      (_, index) =>
        postJson(
          `${server.url}/v1/translate`,
          { target: "de", texts: [FRENCH], options: { engine: "engine-one" } },
          { "x-svc-token": TEST_TOKEN, "x-request-id": `drain-${index}` },
        ).then(async (response) => {
          await response.body?.cancel();
          return response.status;
        }, () => null),
    );
    await held.received();
    const stopped = server.stop();
    await waitForStderrLine(server, /^shutting down$/);
    held.release();
    const code = await stopped;
    const statuses = await Promise.all(answers);
    assert.equal(code, 0);
    const answered = statuses.flatMap((status, index) => status === null ? [] : [index]);
    assert.ok(answered.length > 0, "some requests were answered while draining");
    for (const index of answered) {
      const line = server.stderr.find((line) => line.startsWith(`drain-${index} `));
      assert.ok(line, `access line of drain-${index} (answered ${statuses[index]})`);
      assert.match(
        line,
        new RegExp(`^drain-${index} POST /v1/translate ${statuses[index]} \\d+ms$`),
      );
    }
  } finally {
    held.release();
    await held.runner.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
