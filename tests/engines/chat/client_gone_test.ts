/**
 * A client that leaves while a chat engine's server is still generating: the service stops the
 * engine's request too (the server sees the disconnect and can free its slot), rather than
 * leaving it to run until the server answers or `request_timeout_ms` passes.
 */
import assert from "node:assert/strict";
import { startTranslationService } from "../../support/translation_service.ts";

/**
 * A chat server that lists one model and holds every chat until its client hangs up. Raw TCP:
 * Deno.serve's `request.signal` misses a client that leaves after sending a body over about
 * 1 KB (Deno 2.9.6), and a chat request is bigger, so only the socket shows the disconnect, as
 * Go's server (Ollama) sees it.
 */
function holdingServer(kind: "ollama" | "chat-completions") {
  const chats: { disconnected: boolean }[] = [];
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const models = kind === "ollama"
    ? { models: [{ name: "held:latest" }] }
    : { data: [{ id: "held" }] };
  const serveOne = async (connection: Deno.Conn) => {
    const buffer = new Uint8Array(64 * 1024);
    const first = await connection.read(buffer).catch(() => null);
    const head = first === null ? "" : new TextDecoder().decode(buffer.subarray(0, first));
    if (head.startsWith("GET ")) {
      const body = JSON.stringify(models);
      await connection.write(new TextEncoder().encode(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n" +
          `content-length: ${body.length}\r\n\r\n${body}`,
      ));
      connection.close();
      return;
    }
    const chat = { disconnected: false };
    chats.push(chat);
    // Reads (the rest of the body, then nothing) until the client closes its end.
    while (await connection.read(buffer).catch(() => null) !== null) { /* held */ }
    chat.disconnected = true;
    connection.close();
  };
  (async () => {
    for await (const connection of listener) serveOne(connection);
  })().catch(() => {});
  const engine = kind === "ollama" ? "engine-one" : "compatible-api";
  const { port } = listener.addr as Deno.NetAddr;
  return { engine, chats, baseUrl: `http://127.0.0.1:${port}`, close: () => listener.close() };
}

for (const kind of ["ollama", "chat-completions"] as const) {
  Deno.test(`a client leaving mid-translation makes the service drop its ${kind} request`, async () => {
    const backend = holdingServer(kind);
    const service = await startTranslationService({
      settings: {
        engines: {
          // Short enough that a request left running ends the test, not hangs it.
          [backend.engine]: {
            base_url: backend.baseUrl,
            status_cache_ms: 0,
            request_timeout_ms: 5000,
          },
        },
      },
      statusTtlMs: 0,
    });
    try {
      const leaving = new AbortController();
      const sent = fetch(`${service.url}/v1/translate`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-svc-token": service.token },
        body: JSON.stringify({
          target: "en",
          source: "fr",
          texts: ["Bonjour tout le monde"],
          options: { engine: backend.engine },
        }),
        signal: leaving.signal,
      });
      while (backend.chats.length === 0) await new Promise((done) => setTimeout(done, 10));
      leaving.abort();
      await assert.rejects(sent);
      const deadline = Date.now() + 2000;
      while (!backend.chats[0].disconnected && Date.now() < deadline) {
        await new Promise((done) => setTimeout(done, 10));
      }
      assert.equal(backend.chats[0].disconnected, true, "the server saw the disconnect");
    } finally {
      await service.stop();
      backend.close();
    }
  });
}
