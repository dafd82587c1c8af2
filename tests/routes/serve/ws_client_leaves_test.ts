/**
 * A WebSocket client that closes while the built-in model translates its long frame: the model
 * stops at its next step instead of translating the remaining segments, and its queue slot is
 * free at once for the next request.
 *
 * How the test knows, without timing: the built-in engine's queue lets no job wait (maxWaiting
 * 0), so a short probe answered 503 "busy" proves the long frame holds the engine; the service's
 * "frame stopped" line proves the frame's translation ended by the abort (a frame translated to
 * the end logs nothing); and a probe answered 200 right after that line proves the slot was given
 * up by the stopped job, not by one that finished later.
 *
 * Frames of a closed WebSocket still waiting for a busy engine leave its queue at once, so they
 * do not fill the places other clients' requests need while the job ahead of them runs on.
 */
import assert from "node:assert/strict";
import { setTimeout as delay } from "node:timers/promises";
import { close, connect } from "../../support/ws_client.ts";
import { waitForLine } from "../../support/log_lines.ts";
import { startHoldingStandIn } from "../../support/ollama_stand_in.ts";
import { FRENCH } from "../../support/sample_texts.ts";
import {
  engineAt,
  postTranslate,
  startTranslationService,
  withTranslationService,
} from "../../support/translation_service.ts";

const SENTENCE = "The quick brown fox jumps over the lazy dog near the river bank today. ";
/** Many segments, each long enough that every one runs many generation steps. */
const LONG_FRAME = {
  target: "de",
  source: "en",
  texts: Array.from({ length: 60 }, () => SENTENCE.repeat(6)),
  options: { engine: "local-llm" },
};
const PROBE = { target: "de", source: "en", texts: ["Hello."], options: { engine: "local-llm" } };

Deno.test("a WebSocket closed while the built-in model translates its long frame stops the model and frees the engine at once", async () => {
  const service = await startTranslationService({
    maxNewTokens: 512,
    localQueue: { concurrency: 1, maxWaiting: 0 },
  });
  try {
    const probe = async () => {
      const response = await postTranslate(service, PROBE);
      await response.body?.cancel();
      return response.status;
    };
    assert.equal(await probe(), 200); // the model is loaded before the frame is sent
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    const replies: unknown[] = [];
    client.socket.send(JSON.stringify(LONG_FRAME));
    client.next().then((reply) => replies.push(reply), () => {});
    // Until a probe is refused, the frame is not in the engine yet (or a probe took the slot
    // first and the frame was refused: sent again).
    while (await probe() !== 503) {
      if (replies.length === 0) continue;
      replies.length = 0;
      client.socket.send(JSON.stringify(LONG_FRAME));
      client.next().then((reply) => replies.push(reply), () => {});
    }
    client.socket.close(1000);
    await waitForLine(service.logs, / frame stopped: the client closed the socket$/);
    assert.equal(await probe(), 200, "the engine's slot is still held after the frame stopped");
    assert.deepEqual(replies, []);
  } finally {
    await service.stop();
  }
});

/** A frame for engine-one, whose queue lets 64 jobs wait (the queue's default). */
const ENGINE_ONE_FRAME = { target: "de", texts: [FRENCH], options: { engine: "engine-one" } };

Deno.test("frames of WebSockets closed while they wait for a busy engine give up their places in its queue at once", async () => {
  const held = startHoldingStandIn();
  try {
    await withTranslationService(async (service) => {
      const url = `${service.wsUrl}/v1/ws/translate?token=${service.token}`;
      const answers = [postTranslate(service, ENGINE_ONE_FRAME)];
      try {
        await held.received(); // engine-one's one slot is taken
        // Two connections, 32 frames each (the in-flight cap): the 64 places of the queue.
        const clients = [await connect(url), await connect(url)];
        for (const client of clients) {
          for (let i = 0; i < 32; i++) client.socket.send(JSON.stringify(ENGINE_ONE_FRAME));
        }
        // Probes until one is refused: the queue is full (a probe that found a place keeps it).
        for (;;) {
          const probe = postTranslate(service, ENGINE_ONE_FRAME);
          answers.push(probe);
          if (await Promise.race([probe.then((r) => r.status), delay(50)]) === 503) break;
        }
        for (const client of clients) await close(client);
        const after = postTranslate(service, ENGINE_ONE_FRAME);
        answers.push(after);
        // The closed connections' frames stop while the engine is still held, so the request
        // after them waits for the engine instead of being refused for a queue full of them.
        const first = await Promise.race([
          after.then((response) => response.status),
          waitForLine(service.logs, / frame stopped: the client closed the socket$/),
        ]);
        assert.notEqual(first, 503, "refused for places held by frames of closed connections");
        held.release();
        assert.equal((await after).status, 200);
        assert.deepEqual(service.logs.filter((line) => /unexpected/.test(line)), []);
      } finally {
        // Answered before the service stops, which waits for its requests.
        held.release();
        for (const answer of await Promise.all(answers)) await answer.body?.cancel();
      }
    }, engineAt("engine-one", held.runner.baseUrl));
  } finally {
    held.release();
    await held.runner.stop();
  }
});
