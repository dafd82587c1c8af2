/**
 * `request_timeout_ms` over POST /v1/translate: a chat server that takes too long before its
 * first byte, or starts its answer and then stalls, is given up on in that time and asked once
 * more (a model still loading answers the next request); timing out again is a 500 naming the
 * engine and saying so.
 */
import assert from "node:assert/strict";
import { engineFailureMessage } from "../../support/chat_engine_checks.ts";
import { startTranslationService } from "../../support/translation_service.ts";

const TIMEOUT_MS = 1000;

/** How a server keeps the client waiting. */
const STALLS = [
  {
    name: "sends nothing",
    start: null,
    said: /no answer from http:\/\/127\.0\.0\.1:\d+ within 1000 ms/,
  },
  {
    name: "sends its headers and one SSE chunk, then nothing",
    start: 'data: {"choices":[{"index":0,"delta":{"content":"{\\"1\\": \\"Hel"}}]}\n\n',
    said: /http:\/\/127\.0\.0\.1:\d+ did not finish its answer within 1000 ms/,
  },
];

for (const { name, start, said } of STALLS) {
  Deno.test(`POST /v1/translate gives up on a chat server that ${name} after request_timeout_ms twice: 500 saying so`, async () => {
    let chats = 0;
    let release = () => {};
    const released = new Promise<void>((resolve) => release = resolve);
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      async (request) => {
        if (request.method === "GET") return Response.json({ data: [{ id: "slow" }] });
        await request.body?.cancel();
        chats++;
        if (start === null) {
          await released;
          return Response.json({ error: "too late" });
        }
        const body = new ReadableStream({
          async start(controller) {
            controller.enqueue(new TextEncoder().encode(start));
            await released;
            controller.close();
          },
        });
        return new Response(body, { headers: { "content-type": "text/event-stream" } });
      },
    );
    const service = await startTranslationService({
      settings: {
        engines: {
          "compatible-api": {
            base_url: `http://127.0.0.1:${server.addr.port}`,
            status_cache_ms: 0,
            request_timeout_ms: TIMEOUT_MS,
          },
        },
      },
      statusTtlMs: 0,
    });
    try {
      const started = Date.now();
      const request = {
        target: "en",
        source: "fr",
        texts: ["Bonjour"],
        options: { engine: "compatible-api" },
      };
      const message = await engineFailureMessage(service, request);
      const took = Date.now() - started;
      assert.match(message, /^compatible-api failed: /);
      assert.match(message, said);
      // Asked twice, each given request_timeout_ms; how long after it is the machine's load
      // (the message names the timeout: only its firing says so).
      assert.equal(chats, 2);
      assert.ok(took >= 2 * TIMEOUT_MS, `answered after ${took} ms`);
    } finally {
      release();
      await service.stop();
      await server.shutdown();
    }
  });
}
