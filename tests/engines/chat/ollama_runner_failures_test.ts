/**
 * engine-one when the model runner itself fails (out of memory, a model that will not load):
 * errors that mention a "context" without saying the request is too long for it.
 */
import assert from "node:assert/strict";
import { expectError } from "../../support/http_assertions.ts";
import { GERMAN, postTranslate } from "../../support/chat_engine_checks.ts";
import { withStandInService } from "../../support/stand_in_service.ts";

/** Ollama's own words when its runner fails, as it answers them (HTTP 500). */
const RUNNER_FAILURES = [
  "llama runner process has terminated: error:failed to create context with model " +
  "'/root/.ollama/models/blobs/sha256-6a0746a1ec1a'",
  'Post "http://127.0.0.1:40135/completion": context deadline exceeded',
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
