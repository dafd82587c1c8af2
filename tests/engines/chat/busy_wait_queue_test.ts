/**
 * A job waiting out a busy runner's `Retry-After` (up to 60 s) is waiting for the server, not
 * working: it gives its engine's queue slot up meanwhile, so a request behind it is served at
 * once instead of waiting out the same minute.
 */
import assert from "node:assert/strict";
import { translateOk } from "../../support/chat_engine_checks.ts";
import { type RunnerFault, startFlakyRunner } from "../../support/flaky_runner.ts";
import { standInTranslation, startOllamaStandIn } from "../../support/ollama_stand_in.ts";
import { startTranslationService } from "../../support/translation_service.ts";

/** Four texts, two per batch (`max_batch_items: 2`): the busy answer comes on the second batch. */
const TEXTS = ["Guten Morgen", "Hallo Welt", "Guten Abend", "Bis morgen"];
const SECOND = TEXTS[2];
const BUSY: RunnerFault = {
  status: 429,
  // Long enough that the other request, sent as soon as the busy answer is on its way, cannot
  // arrive after the wait; the waiting request is aborted once the test has seen enough.
  headers: { "retry-after": "20" },
  body: JSON.stringify({ error: "server busy, please try again." }),
};

Deno.test("engine-one gives its queue slot up while a job waits out a busy runner's Retry-After", async () => {
  const runner = startOllamaStandIn();
  const askedBusy = Promise.withResolvers<void>();
  const flaky = startFlakyRunner(runner.baseUrl, (chat, asked) => {
    if (chat.texts[0] !== SECOND || asked > 0) return undefined;
    askedBusy.resolve();
    return BUSY;
  });
  const service = await startTranslationService({
    settings: {
      engines: {
        "engine-one": { base_url: flaky.baseUrl, status_cache_ms: 0, max_batch_items: 2 },
      },
    },
    statusTtlMs: 0,
  });
  const leaving = new AbortController();
  try {
    let waitingDone = false;
    const waiting = fetch(`${service.url}/v1/translate`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-svc-token": service.token },
      body: JSON.stringify({
        source: "de",
        target: "en",
        texts: TEXTS,
        options: { engine: "engine-one" },
      }),
      signal: leaving.signal,
    }).then((response) => response.body?.cancel(), () => {}).finally(() => waitingDone = true);
    // The runner has been asked for the second batch: it answers busy, and the job waits.
    await askedBusy.promise;
    const other = await translateOk(service, {
      source: "de",
      target: "en",
      texts: ["Gute Nacht"],
      options: { engine: "engine-one" },
    });
    assert.equal(other.results[0].text, standInTranslation("Gute Nacht"));
    assert.equal(waitingDone, false, "the other request was served only after the wait");
    leaving.abort();
    await waiting;
  } finally {
    leaving.abort();
    await service.stop();
    await flaky.stop();
    await runner.stop();
  }
});
