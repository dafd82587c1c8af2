/**
 * A flaky local runner in the middle of a job of several batches: a busy answer, a connection
 * closed without an answer, a request that times out. Only the batch that failed is asked again,
 * never the batches already answered, and each second chance is bounded.
 */
import assert from "node:assert/strict";
import { expectError } from "../../support/http_assertions.ts";
import { postTranslate, translateOk } from "../../support/chat_engine_checks.ts";
import {
  type ReceivedChat,
  type RunnerFault,
  startFlakyRunner,
} from "../../support/flaky_runner.ts";
import { standInTranslation, startOllamaStandIn } from "../../support/ollama_stand_in.ts";
import { startTranslationService, type TestService } from "../../support/translation_service.ts";

/** Four texts, two per batch (`max_batch_items: 2`). */
const TEXTS = ["Guten Morgen", "Hallo Welt", "Guten Abend", "Bis morgen"];
const FIRST = TEXTS[0];
const SECOND = TEXTS[2];
const REQUEST = { source: "de", target: "en", texts: TEXTS, options: { engine: "engine-one" } };
const TIMEOUT_MS = 1000;

const BUSY: RunnerFault = {
  status: 429,
  headers: { "retry-after": "1" },
  body: JSON.stringify({ error: "server busy, please try again." }),
};

/** Ollama's answer when its queue is full (`OLLAMA_MAX_QUEUE`): no Retry-After. */
const QUEUE_FULL: RunnerFault = {
  status: 503,
  body: JSON.stringify({
    error: "server busy, please try again.  maximum pending requests exceeded",
  }),
};

/** Runs `fn` against a service whose engine-one is a flaky runner failing as `fault` says. */
async function withFlakyRunner(
  fault: (chat: ReceivedChat, asked: number) => RunnerFault | undefined,
  fn: (service: TestService, asked: (first: string) => number) => Promise<void>,
): Promise<void> {
  const runner = startOllamaStandIn();
  const flaky = startFlakyRunner(runner.baseUrl, fault);
  const asked = (first: string) => flaky.chats.filter((chat) => chat.texts[0] === first).length;
  try {
    const service = await startTranslationService({
      settings: {
        engines: {
          "engine-one": {
            base_url: flaky.baseUrl,
            status_cache_ms: 0,
            max_batch_items: 2,
            request_timeout_ms: TIMEOUT_MS,
          },
        },
      },
      statusTtlMs: 0,
    });
    try {
      await fn(service, asked);
    } finally {
      await service.stop();
    }
  } finally {
    await flaky.stop();
    await runner.stop();
  }
}

/** Faults of a later batch that are asked again, once, without the batches before it. */
const ONCE_ON_A_LATER_BATCH: { name: string; fault: RunnerFault | "close" | "stall" }[] = [
  { name: "a 429 with Retry-After", fault: BUSY },
  {
    name: "Ollama's 503 for a full queue (OLLAMA_MAX_QUEUE), without Retry-After",
    fault: QUEUE_FULL,
  },
  { name: "a connection closed without an answer", fault: "close" },
  { name: "a request that times out", fault: "stall" },
];

for (const { name, fault } of ONCE_ON_A_LATER_BATCH) {
  Deno.test(`engine-one asks only the failed batch again after ${name} on a later batch`, async () => {
    await withFlakyRunner(
      (chat, asked) => chat.texts[0] === SECOND && asked === 0 ? fault : undefined,
      async (service, asked) => {
        const body = await translateOk(service, REQUEST);
        assert.deepEqual(body.results.map((r) => r.text), TEXTS.map(standInTranslation));
        assert.equal(asked(FIRST), 1, "the batch already answered is not asked again");
        assert.equal(asked(SECOND), 2);
      },
    );
  });
}

Deno.test("engine-one whose runner is busy again after its Retry-After gives 503 with Retry-After, asked twice", async () => {
  await withFlakyRunner(
    (chat) => chat.texts[0] === SECOND ? BUSY : undefined,
    async (service, asked) => {
      const response = await postTranslate(service, REQUEST);
      assert.equal(response.headers.get("retry-after"), "1");
      const error = await expectError(response, 503, "engine_unavailable");
      assert.match(error.error.message, /server busy, please try again\./);
      assert.equal(asked(SECOND), 2);
    },
  );
});

Deno.test("engine-one whose runner closes the connection twice without answering says so (503), not 'fetch failed'", async () => {
  await withFlakyRunner(
    (chat) => chat.texts[0] === FIRST ? "close" : undefined,
    async (service, asked) => {
      const error = await expectError(
        await postTranslate(service, REQUEST),
        503,
        "engine_unavailable",
      );
      assert.match(
        error.error.message,
        /^engine-one is unavailable: http:\/\/127\.0\.0\.1:\d+ closed the connection without answering \(.*connection closed before message completed\)$/,
      );
      assert.equal(asked(FIRST), 2);
    },
  );
});

Deno.test("engine-one asks a timed-out request again once per job: a second timeout is a 500 saying so", async () => {
  await withFlakyRunner(
    (_chat, asked) => asked === 0 ? "stall" : undefined,
    async (service, asked) => {
      const started = Date.now();
      const error = await expectError(
        await postTranslate(service, REQUEST),
        500,
        "internal_error",
      );
      assert.match(
        error.error.message,
        /^engine-one failed: no answer from http:\/\/127\.0\.0\.1:\d+ within 1000 ms/,
      );
      // The first batch timed out and was answered when asked again; the second's timeout is
      // one too many for the job: the whole wait stays within one extra request_timeout_ms.
      assert.equal(asked(FIRST), 2);
      assert.equal(asked(SECOND), 1);
      assert.ok(Date.now() - started >= 2 * TIMEOUT_MS);
    },
  );
});
