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
 */
import assert from "node:assert/strict";
import { connect } from "../../support/ws_client.ts";
import { waitForLine } from "../../support/log_lines.ts";
import { postTranslate, startTranslationService } from "../../support/translation_service.ts";

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
