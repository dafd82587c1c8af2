/**
 * Shutdown of the service with WebSockets open (in-process, and a `tolk serve` process on SIGTERM):
 * frames accepted are answered, later ones refused,
 * and every socket closed with 1001 within the bound.
 */
import assert from "node:assert/strict";
import { FRENCH } from "../../support/sample_texts.ts";
import { ErrorResponseSchema, TranslateResponseSchema } from "../../../schemas/translation.ts";
import { connect } from "../../support/ws_client.ts";
import {
  engineAt,
  FIXTURE_MODELS_DIR,
  postTranslate,
  startTranslationService,
  TEST_TOKEN,
} from "../../support/translation_service.ts";
import { startHoldingStandIn } from "../../support/ollama_stand_in.ts";
import { serveArgs, startTolkServer } from "../../support/tolk_process.ts";
import { withTempDir } from "../../support/temp_dir.ts";
import { rawUpgrade, WEBSOCKET_KEY } from "../../support/raw_http.ts";
import { join } from "node:path";

/** WebSocket opcodes (RFC 6455 §5.2). */
const PONG = 0xa;
const CLOSE = 0x8;

Deno.test("GET /v1/ws/translate closes open sockets with 1001 when the service shuts down", async () => {
  const service = await startTranslationService();
  const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
  await service.stop();
  assert.equal((await client.closed).code, 1001);
});

Deno.test("GET /v1/ws/translate answers the frames it accepted before closing with 1001 at shutdown, and refuses later ones", async () => {
  const held = startHoldingStandIn();
  try {
    const service = await startTranslationService(engineAt("engine-one", held.runner.baseUrl));
    // A raw socket, to ping: the client API cannot, and the pong is what says a frame was read.
    const client = await rawUpgrade(service.url, `/v1/ws/translate?token=${service.token}`, {
      Host: "localhost",
      Upgrade: "websocket",
      Connection: "Upgrade",
      ...WEBSOCKET_KEY,
    });
    try {
      assert.equal(client.status, 101);
      await client.send(
        JSON.stringify({
          target: "de",
          texts: [FRENCH, FRENCH],
          options: { engine: "engine-one" },
        }),
      );
      await held.received(); // the frame is at work
      const stopped = service.stop();
      await client.send(JSON.stringify({ target: "de", texts: [FRENCH] }));
      // The refusal is sent after the first reply (replies keep frame order): the runner answers
      // once the service has read the later frame, which the pong after it says.
      await client.ping();
      assert.equal((await client.receiveFrame()).opcode, PONG);
      held.release();
      assert.equal(
        TranslateResponseSchema.parse(JSON.parse(await client.receive())).results.length,
        2,
      );
      const refused = ErrorResponseSchema.parse(JSON.parse(await client.receive()));
      assert.equal(refused.error.code, "engine_unavailable");
      assert.match(refused.error.message, /shutting down/);
      const close = await client.receiveFrame();
      assert.equal(close.opcode, CLOSE);
      assert.equal(new DataView(close.payload.buffer).getUint16(0), 1001);
      await stopped;
    } finally {
      client.close();
    }
  } finally {
    held.release();
    await held.runner.stop();
  }
});

Deno.test("at shutdown a frame still at work past the bound gets a 1001 close, and new requests meanwhile are refused", async () => {
  const held = startHoldingStandIn();
  try {
    const service = await startTranslationService({
      ...engineAt("engine-one", held.runner.baseUrl),
      socketCloseMs: 300,
    });
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    client.socket.send(
      JSON.stringify({ target: "de", texts: [FRENCH], options: { engine: "engine-one" } }),
    );
    await held.received(); // the frame is at work
    const stopped = service.stop();
    const late = await postTranslate(service, { target: "de", texts: [FRENCH] });
    assert.equal(late.status, 503);
    assert.match(ErrorResponseSchema.parse(await late.json()).error.message, /shutting down/);
    // The runner still holds the frame's request: the close comes from the bound.
    assert.equal((await client.closed).code, 1001);
    held.release();
    await stopped;
  } finally {
    held.release();
    await held.runner.stop();
  }
});

Deno.test("tolk serve on SIGTERM answers a frame at work on a README-form socket, closes it and an idle one with 1001, and exits 0", async () => {
  const held = startHoldingStandIn();
  try {
    await withTempDir("tolk-ws-sigterm-", async (dir) => {
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
      let exited: Promise<number> | undefined;
      try {
        const url = `${server.url.replace(/^http/, "ws")}/v1/ws/translate`;
        // As the README writes it, and with the query form.
        const busy = await connect(url, ["bearer", TEST_TOKEN]);
        const idle = await connect(`${url}?token=${TEST_TOKEN}`);
        busy.socket.send(
          JSON.stringify({
            target: "de",
            texts: [FRENCH, FRENCH],
            options: { engine: "engine-one" },
          }),
        );
        await held.received(); // the frame is at work
        exited = server.stop();
        assert.equal((await idle.closed).code, 1001);
        held.release();
        assert.equal(TranslateResponseSchema.parse(await busy.next()).results.length, 2);
        assert.equal((await busy.closed).code, 1001);
        assert.equal(await exited, 0);
      } finally {
        // A failed assertion must not leave the process serving.
        if (!exited) await server.stop();
      }
    });
  } finally {
    held.release();
    await held.runner.stop();
  }
});
