/**
 * engine-one when the model runner itself fails: errors that mention a "context" without saying
 * the request is too long for it (out of memory, a model that will not load), a runner that
 * crashes in the middle of its answer.
 */
import assert from "node:assert/strict";
import { expectError } from "../../support/http_assertions.ts";
import { engineCapabilities, GERMAN, postTranslate } from "../../support/chat_engine_checks.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { serveRawTcp } from "../../support/raw_tcp.ts";
import { startTranslationService } from "../../support/translation_service.ts";

/** Ollama's own words when its runner fails, as it answers them (HTTP 500). */
/** The 503 `engine_unavailable` a German text sent to engine-one gets, its body parsed. */
async function unavailableAnswer(service: Parameters<typeof postTranslate>[0]) {
  const request = {
    source: "de",
    target: "en",
    texts: [GERMAN],
    options: { engine: "engine-one" },
  };
  return await expectError(await postTranslate(service, request), 503, "engine_unavailable");
}

const RUNNER_FAILURES = [
  "llama runner process has terminated: error:failed to create context with model " +
  "'/root/.ollama/models/blobs/sha256-6a0746a1ec1a'",
  'Post "http://127.0.0.1:40135/completion": context deadline exceeded',
  "model requires more system memory (5.6 GiB) than is available (3.2 GiB)",
];

for (const failure of RUNNER_FAILURES) {
  Deno.test(`engine-one quotes "${failure.slice(0, 40)}…" once, not as a text too long for the context`, async () => {
    const script = Array.from({ length: 4 }, () => ({ status: 500, error: failure }));
    await withStandInService({ script }, async (service, runner) => {
      const request = {
        source: "de",
        target: "en",
        texts: [GERMAN, "Hallo Welt", "Guten Abend", "Bis morgen"],
        options: { engine: "engine-one" },
      };
      const error = await expectError(await postTranslate(service, request), 500, "internal_error");
      assert.equal(
        error.error.message,
        `engine-one failed: the backend answered HTTP 500: ${failure}`,
      );
      // One request: a failing runner is not asked again with halves of the batch.
      assert.equal(runner.chats.length, 1);
    });
  });
}

/**
 * A runner on raw TCP that lists its model and, for /api/chat, sends the head of a 200 answer and
 * part of its body, then closes the connection: what a runner crashing mid-generation looks like.
 */
function startCrashingRunner() {
  const encoder = new TextEncoder();
  const answer = (body: string, length = body.length) =>
    encoder.encode(
      `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n` +
        `connection: close\r\n\r\n${body}`,
    );
  return serveRawTcp(async (conn, request) => {
    if (request === null) return;
    await conn.write(
      request.path.startsWith("/api/tags")
        ? answer(JSON.stringify({ models: [{ name: "tolk-test:latest" }] }))
        : answer(
          '{"model":"tolk-test:latest","message":{"role":"assistant","content":"{\\"1',
          400,
        ),
    );
  });
}

Deno.test("engine-one whose runner drops the connection mid-answer says so (503), not that it cannot be reached", async () => {
  const runner = startCrashingRunner();
  const service = await startTranslationService({
    settings: { engines: { "engine-one": { base_url: runner.baseUrl, status_cache_ms: 0 } } },
    statusTtlMs: 0,
  });
  try {
    const error = await unavailableAnswer(service);
    assert.match(
      error.error.message,
      /^engine-one is unavailable: http:\/\/127\.0\.0\.1:\d+ dropped the connection in the middle of its answer \(/,
    );
    // The runner still answers: capabilities say so.
    assert.equal((await engineCapabilities(service, "engine-one")).ready, true);
  } finally {
    await service.stop();
    await runner.stop();
  }
});

Deno.test("engine-one whose runner's model load timed out is unavailable (503) at once, not asked again", async () => {
  const failure = "timed out waiting for llama runner to start - progress 0.00 - ";
  const script = Array.from({ length: 2 }, () => ({ status: 500, error: failure }));
  await withStandInService({ script }, async (service, runner) => {
    const error = await unavailableAnswer(service);
    assert.equal(
      error.error.message,
      `engine-one is unavailable: the backend answered HTTP 500: ${failure.trim()}`,
    );
    // A load that stalled for Ollama's whole load timeout would stall again (backend_http.ts).
    assert.equal(runner.chats.length, 1);
  });
});
