/**
 * While `tolk serve` shuts down (WebSockets finishing their frames), new requests are refused
 * with 503: on the compatibility routes in their client's own error shape, which is all those
 * clients can read (the `translate` package showed tolk's error object as "[object Object]").
 */
import assert from "node:assert/strict";
import { ErrorResponseSchema } from "../../schemas/translation.ts";
import { FRENCH } from "../support/sample_texts.ts";
import { connect } from "../support/ws_client.ts";
import { postTranslate, startTranslationService } from "../support/translation_service.ts";

Deno.test("while the service shuts down, compat routes refuse in their client's error shape", async () => {
  // A model runner that holds its one chat until the checks are done: the service stays in its
  // shutdown window (a WebSocket frame at work) for as long as the test needs.
  let chatArrived!: () => void;
  const arrived = new Promise<void>((resolve) => chatArrived = resolve);
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  const runner = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === "/api/tags") {
      return Response.json({ models: [{ name: "held:latest", model: "held:latest" }] });
    }
    if (pathname !== "/api/chat") return new Response(null, { status: 404 });
    chatArrived();
    return released.then(() => new Response(null, { status: 500 }));
  });
  const service = await startTranslationService({
    settings: {
      engines: {
        "engine-one": { base_url: `http://127.0.0.1:${runner.addr.port}`, status_cache_ms: 0 },
      },
    },
    statusTtlMs: 0,
  });
  try {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    client.socket.send(
      JSON.stringify({ target: "de", texts: [FRENCH], options: { engine: "engine-one" } }),
    );
    await arrived;
    const stopped = service.stop();

    const form = (fields: Record<string, string>) => new URLSearchParams(fields);
    const deepl = await fetch(`${service.url}/v1/compat/deepl/v2/translate`, {
      method: "POST",
      headers: { authorization: `DeepL-Auth-Key ${service.token}` },
      body: form({ text: "Bonjour", target_lang: "DE" }),
    });
    const deeplBody = await deepl.json();
    assert.equal(deepl.status, 503);
    assert.deepEqual(Object.keys(deeplBody), ["message"]);
    assert.match(deeplBody.message, /shutting down/);

    for (
      const path of ["/v1/compat/libre/translate", `/v1/compat/t/${service.token}/libre/translate`]
    ) {
      const libre = await fetch(`${service.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ q: "Bonjour", source: "fr", target: "de", api_key: service.token }),
      });
      const libreBody = await libre.json();
      assert.equal(libre.status, 503, path);
      assert.deepEqual(Object.keys(libreBody), ["error"], path);
      assert.match(libreBody.error, /shutting down/);
    }

    const deeplx = await fetch(`${service.url}/v1/compat/deeplx/translate?token=${service.token}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "Bonjour", source_lang: "FR", target_lang: "DE" }),
    });
    const deeplxBody = await deeplx.json();
    assert.equal(deeplx.status, 503);
    assert.deepEqual(deeplxBody, { code: 503, message: deeplxBody.message });
    assert.match(deeplxBody.message, /shutting down/);

    // tolk's own routes keep tolk's shape.
    const own = await postTranslate(service, { target: "de", texts: [FRENCH] });
    assert.equal(own.status, 503);
    assert.match(ErrorResponseSchema.parse(await own.json()).error.message, /shutting down/);

    release();
    await client.closed;
    await stopped;
  } finally {
    release();
    await runner.shutdown();
  }
});
