/**
 * Frames over GET /v1/ws/translate: one reply each, in order; error frames keep the connection;
 * the frame size limits; a token revoked or the API disabled while connected.
 */
import assert from "node:assert/strict";
import { ENGLISH, FRENCH } from "../../support/sample_texts.ts";
import { ErrorResponseSchema, TranslateResponseSchema } from "../../../schemas/translation.ts";
import { rawGet, WEBSOCKET_KEY } from "../../support/raw_http.ts";
import { SettingsStore } from "../../../settings/settings_store.ts";
import { close, connect } from "../../support/ws_client.ts";
import { waitForLine } from "../../support/log_lines.ts";
import { startHoldingStandIn } from "../../support/ollama_stand_in.ts";
import {
  engineAt,
  postTranslate,
  withTranslationService as withService,
} from "../../support/translation_service.ts";

Deno.test("GET /v1/ws/translate answers pipelined frames in request order", async () => {
  await withService(async (service) => {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    // A slow frame (engine work) first, fast ones (pass-through, errors) behind it.
    const frames = [
      { target: "de", texts: [FRENCH, FRENCH, FRENCH] },
      { target: "en", texts: [ENGLISH] },
      { target: "xx", texts: ["a"] },
      { target: "en", texts: [ENGLISH, ENGLISH] },
      { target: "es", texts: [FRENCH, ENGLISH, FRENCH, ENGLISH] },
    ];
    for (const frame of frames) client.socket.send(JSON.stringify(frame));
    const replies = [];
    for (const _ of frames) replies.push(await client.next());
    assert.equal(TranslateResponseSchema.parse(replies[0]).results.length, 3);
    assert.equal(TranslateResponseSchema.parse(replies[1]).results.length, 1);
    assert.equal(ErrorResponseSchema.parse(replies[2]).error.code, "unsupported_language");
    assert.equal(TranslateResponseSchema.parse(replies[3]).results.length, 2);
    assert.equal(TranslateResponseSchema.parse(replies[4]).target, "es");
    await close(client);
  });
});

Deno.test("GET /v1/ws/translate keeps the connection open after an error frame", async () => {
  await withService(async (service) => {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    client.socket.send("{not json");
    const error = ErrorResponseSchema.parse(await client.next());
    assert.equal(error.error.code, "invalid_request");
    client.socket.send(JSON.stringify({ target: "en", texts: Array(129).fill("a") }));
    assert.equal(ErrorResponseSchema.parse(await client.next()).error.code, "batch_too_large");
    client.socket.send(
      new TextEncoder().encode(JSON.stringify({ target: "en", texts: [ENGLISH] })),
    );
    TranslateResponseSchema.parse(await client.next());
    assert.equal(client.socket.readyState, WebSocket.OPEN);
    await close(client);
  });
});

Deno.test("GET /v1/ws/translate refuses a binary frame that is not UTF-8 instead of translating U+FFFD", async () => {
  await withService(async (service) => {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    const encode = (text: string) => new TextEncoder().encode(text);
    // "café" in ISO-8859-1: the é is the lone byte 0xE9.
    client.socket.send(
      new Uint8Array([...encode('{"target":"de","texts":["caf'), 0xe9, ...encode('"]}')]),
    );
    const error = ErrorResponseSchema.parse(await client.next());
    assert.deepEqual(
      [error.error.code, error.error.message],
      ["invalid_request", "the frame is not valid UTF-8"],
    );
    // The same frame in UTF-8 (with a byte-order mark) is translated on the same connection.
    client.socket.send(
      new Uint8Array([0xef, 0xbb, 0xbf, ...encode('{"target":"de","texts":["café"]}')]),
    );
    const reply = TranslateResponseSchema.parse(await client.next());
    assert.equal(reply.usage.input_chars, 4);
    const kept = service.history.list({ limit: 10 }).entries.map((entry) => entry.texts);
    assert.deepEqual(kept, [["café"]]);
    await close(client);
  });
});

/** A translate request of exactly `bytes` UTF-8 bytes, its text made of `unit` repeated. */
function frameOf(bytes: number, unit: string): string {
  const shell = JSON.stringify({ target: "en", texts: [""] });
  const room = bytes - new TextEncoder().encode(shell).length;
  const unitBytes = new TextEncoder().encode(unit).length;
  const text = unit.repeat(Math.floor(room / unitBytes)) + "a".repeat(room % unitBytes);
  return JSON.stringify({ target: "en", texts: [text] });
}

const MIB = 1024 * 1024;

/** The frame limit counts UTF-8 bytes, as a body's limit does, in text and binary frames. */
const FRAME_SIZES = [
  { name: "1 MiB of ASCII", frame: () => frameOf(MIB, "a"), binary: false, closes: false },
  { name: "1 MiB + 1 of ASCII", frame: () => frameOf(MIB + 1, "a"), binary: false, closes: true },
  // 2 bytes each in UTF-8 but 1 UTF-16 unit: under the limit counted in units.
  { name: "1 MiB + 1 of é", frame: () => frameOf(MIB + 1, "é"), binary: false, closes: true },
  { name: "1 MiB of é, binary", frame: () => frameOf(MIB, "é"), binary: true, closes: false },
  { name: "1 MiB + 1, binary", frame: () => frameOf(MIB + 1, "é"), binary: true, closes: true },
];

Deno.test("GET /v1/ws/translate closes with 1009 on a frame over 1 MiB and reads one of 1 MiB", async () => {
  await withService(async (service) => {
    for (const size of FRAME_SIZES) {
      const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
      const frame = size.frame();
      assert.equal(new TextEncoder().encode(frame).length, MIB + (size.closes ? 1 : 0));
      client.socket.send(size.binary ? new TextEncoder().encode(frame) : frame);
      if (size.closes) {
        assert.equal((await client.closed).code, 1009, size.name);
        continue;
      }
      // Read, and refused as the same body over HTTP is: its text is over the item limit.
      const { error } = ErrorResponseSchema.parse(await client.next());
      assert.equal(error.code, "payload_too_large", size.name);
      await close(client);
    }
  });
});

Deno.test("GET /v1/ws/translate answers the frames sent before one over 1 MiB, in order, then closes with 1009", async () => {
  await withService(async (service) => {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    // Engine work first, so its reply is not ready when the frame over the limit arrives.
    client.socket.send(JSON.stringify({ target: "de", texts: Array(4).fill(FRENCH) }));
    client.socket.send(JSON.stringify({ source: "en", target: "en", texts: [ENGLISH] }));
    client.socket.send(frameOf(MIB + 1, "a"));
    client.socket.send(JSON.stringify({ source: "en", target: "en", texts: ["after"] }));
    const replies: unknown[] = [];
    const closed = await new Promise<CloseEvent>((resolve) => {
      client.socket.addEventListener("close", resolve);
      client.socket.addEventListener("message", (event) => replies.push(JSON.parse(event.data)));
    });
    assert.equal(closed.code, 1009);
    // The two frames before it answered; the one after it not read.
    assert.deepEqual(
      replies.map((reply) => TranslateResponseSchema.parse(reply).results.length),
      [4, 1],
    );
  });
});

Deno.test("a frame over 64 MiB, the runtime's own limit, ends that connection and no other", async () => {
  await withService(async (service) => {
    const url = `${service.wsUrl}/v1/ws/translate?token=${service.token}`;
    const bystander = await connect(url);
    const client = await connect(url);
    client.socket.send("a".repeat(65 * 1024 * 1024));
    // Deno drops the connection without a close frame, before tolk sees the frame (README).
    assert.notEqual((await client.closed).code, 1000);
    bystander.socket.send(JSON.stringify({ target: "en", source: "en", texts: ["still here"] }));
    const reply = TranslateResponseSchema.parse(await bystander.next());
    assert.equal(reply.results[0].text, "still here");
    await close(bystander);
  });
});

Deno.test("GET /v1/ws/translate answers ws_unauthorized then closes 4401 after the token is revoked", async () => {
  await withService(async (service) => {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    service.store.update((s) => {
      s.api.token = null;
    });
    client.socket.send(JSON.stringify({ target: "en", texts: [ENGLISH] }));
    assert.equal(ErrorResponseSchema.parse(await client.next()).error.code, "ws_unauthorized");
    const closed = await client.closed;
    assert.equal(closed.code, 4401);
    assert.equal(closed.reason, "token revoked");
  });
});

Deno.test("GET /v1/ws/translate: a frame sent after another process revoked the token gets ws_unauthorized, then 4401", async () => {
  await withService(async (service) => {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    client.socket.send(JSON.stringify({ source: "en", target: "en", texts: [ENGLISH] }));
    TranslateResponseSchema.parse(await client.next());
    // Another store on the same file, as `tolk token revoke` in another process.
    new SettingsStore(service.configPath).update((s) => {
      s.api.token = null;
    });
    client.socket.send(JSON.stringify({ source: "en", target: "en", texts: [ENGLISH] }));
    assert.equal(ErrorResponseSchema.parse(await client.next()).error.code, "ws_unauthorized");
    assert.equal((await client.closed).code, 4401);
  });
});

Deno.test("GET /v1/ws/translate: a frame sent after the API was disabled is told so, as a new handshake would be, then 4401", async () => {
  await withService(async (service) => {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    service.store.update((s) => {
      s.api.enabled = false;
    });
    client.socket.send(JSON.stringify({ target: "en", texts: [ENGLISH] }));
    const { error } = ErrorResponseSchema.parse(await client.next());
    const closed = await client.closed;
    const handshake = await rawGet(service.url, `/v1/ws/translate?token=${service.token}`, {
      Host: "localhost",
      Upgrade: "websocket",
      ...WEBSOCKET_KEY,
    });
    const refusal = ErrorResponseSchema.parse(JSON.parse(handshake.body)).error;
    assert.deepEqual(error, refusal);
    assert.match(error.message, /disabled.*tolk api enable/);
    assert.equal(closed.code, 4401);
    assert.equal(closed.reason, "API disabled");
  });
});

Deno.test("GET /v1/ws/translate: a client leaving mid-translation is no unexpected error", async () => {
  const held = startHoldingStandIn();
  try {
    await withService(async (service) => {
      const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
      const frame = { target: "de", texts: [FRENCH], options: { engine: "engine-one" } };
      for (let sent = 0; sent < 2; sent++) client.socket.send(JSON.stringify(frame));
      await held.received(); // the first is being translated
      await close(client);
      await waitForLine(service.logs, / ws closed after 2 frames$/);
      held.release();
      // The engine runs one job at a time: this answer comes once the frames' jobs have ended,
      // and what was logged for them is in the log.
      const after = await postTranslate(service, frame);
      TranslateResponseSchema.parse(await after.json());
      assert.deepEqual(service.logs.filter((line) => /unexpected/.test(line)), []);
    }, engineAt("engine-one", held.runner.baseUrl));
  } finally {
    held.release();
    await held.runner.stop();
  }
});

Deno.test("a routine 503 from a named engine is rendered alike over HTTP and WebSocket, said once and not logged as unexpected", async () => {
  await withService(async (service) => {
    const request = { target: "de", texts: [FRENCH], options: { engine: "engine-one" } };
    const http = ErrorResponseSchema.parse(await (await postTranslate(service, request)).json());
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    client.socket.send(JSON.stringify(request));
    const frame = ErrorResponseSchema.parse(await client.next());
    await close(client);
    assert.deepEqual(frame, http);
    assert.equal(http.error.code, "engine_unavailable");
    assert.match(http.error.message, /^engine-one is unavailable: cannot reach /);
    assert.equal(http.error.message.split("is unavailable").length, 2, http.error.message);
    assert.deepEqual(service.logs.filter((line) => /unexpected|failed/.test(line)), []);
  });
});
