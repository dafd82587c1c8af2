/**
 * Forms of the handshake and of frames that real clients send, each over a real WebSocket
 * against the real service: an empty `token=` beside `access_token=` (a URL template filling both
 * parameters), and a text frame that starts with a byte-order mark (a file read as text).
 */
import assert from "node:assert/strict";
import { ENGLISH } from "../../support/sample_texts.ts";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
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
