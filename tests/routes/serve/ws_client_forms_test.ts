/**
 * Forms of the handshake and of frames that real clients send, each over a real WebSocket
 * against the real service: an empty `token=` beside `access_token=` (a URL template filling both
 * parameters), a text frame that starts with a byte-order mark (a file read as text), and bytes
 * that are not UTF-8 (a client that does not encode its strings), sent byte for byte.
 */
import assert from "node:assert/strict";
import { ENGLISH } from "../../support/sample_texts.ts";
import { ErrorResponseSchema, TranslateResponseSchema } from "../../../schemas/translation.ts";
import { rawUpgrade, WEBSOCKET_KEY } from "../../support/raw_http.ts";
import { waitForLine } from "../../support/log_lines.ts";
import { close, connect } from "../../support/ws_client.ts";
import { withTranslationService as withService } from "../../support/translation_service.ts";

Deno.test("GET /v1/ws/translate: an empty token= does not hide the access_token= beside it", async () => {
  await withService(async (service) => {
    const queries = [
      `?token=&access_token=${service.token}`,
      `?access_token=${service.token}&token=`,
    ];
    for (const query of queries) {
      const client = await connect(`${service.wsUrl}/v1/ws/translate${query}`).catch((error) => {
        throw new Error(`${query}: ${error.message}`);
      });
      client.socket.send(JSON.stringify({ source: "en", target: "en", texts: [ENGLISH] }));
      const reply = TranslateResponseSchema.parse(await client.next());
      assert.equal(reply.results[0].text, ENGLISH, query);
      await close(client);
    }
  });
});

Deno.test("GET /v1/ws/translate reads a text frame with a byte-order mark as it reads a binary one", async () => {
  await withService(async (service) => {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    const request = JSON.stringify({ source: "en", target: "en", texts: [ENGLISH] });
    client.socket.send(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(request)]));
    const binary = TranslateResponseSchema.parse(await client.next());
    client.socket.send(`\uFEFF${request}`);
    const text = TranslateResponseSchema.parse(await client.next());
    assert.deepEqual(text.results, binary.results);
    // Only the leading mark is the encoding's: one inside a text is kept.
    client.socket.send(
      `\uFEFF${JSON.stringify({ source: "en", target: "en", texts: ["\uFEFFa"] })}`,
    );
    assert.equal(TranslateResponseSchema.parse(await client.next()).results[0].text, "\uFEFFa");
    await close(client);
  });
});

/** WebSocket opcodes (RFC 6455 §5.2). */
const TEXT = 0x1;
const BINARY = 0x2;

Deno.test("GET /v1/ws/translate: bytes that are not UTF-8 get an error frame in a binary frame, and end the connection in a text frame", async () => {
  await withService(async (service) => {
    const encode = (text: string) => new TextEncoder().encode(text);
    // "café" in ISO-8859-1, as a client that does not encode its strings sends it.
    const latin1 = new Uint8Array([
      ...encode('{"target":"de","texts":["caf'),
      0xe9,
      ...encode('"]}'),
    ]);
    const open = () =>
      rawUpgrade(service.url, `/v1/ws/translate?token=${service.token}`, {
        Host: "localhost",
        Upgrade: "websocket",
        Connection: "Upgrade",
        ...WEBSOCKET_KEY,
      });
    const binary = await open();
    try {
      await binary.sendFrame(BINARY, latin1);
      const { error } = ErrorResponseSchema.parse(JSON.parse(await binary.receive()));
      assert.equal(error.message, "the frame is not valid UTF-8");
    } finally {
      binary.close();
    }
    // RFC 6455 §8.1: a text frame must be UTF-8. The runtime ends the connection before tolk
    // sees the frame, without a close frame (README, WebSocket).
    const text = await open();
    try {
      await text.sendFrame(TEXT, latin1);
      await assert.rejects(text.receiveFrame(), /connection closed|reset/i);
    } finally {
      text.close();
    }
    await waitForLine(service.logs, / ws closed after 0 frames$/);
  });
});
