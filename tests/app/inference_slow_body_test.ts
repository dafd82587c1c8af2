/**
 * Slow request bodies (issue 15, point 6): reading a body holds no generation slot, and a body
 * that has not arrived by the deadline is dropped with 408 in the service's error shape. The
 * slow clients speak raw HTTP/1.1 over TCP, as a trickling client does (`fetch` only shows a
 * response once its own upload has ended).
 */
import assert from "node:assert/strict";
import { ErrorBodySchema } from "../../schemas/openai.ts";
import { NATIVE_SANITIZERS, startInferApp } from "../support/infer_app.ts";

/**
 * Opens a POST and sends only the first few bytes of its body: a body that declares 200 bytes,
 * or a chunked one (no length: the size limit reads it as it comes).
 */
async function startTrickle(baseUrl: string, chunked: boolean): Promise<Deno.TcpConn> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(new URL(baseUrl).port) });
  const framing = chunked ? "Transfer-Encoding: chunked" : "Content-Length: 200";
  const head = "POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\n" +
    `Content-Type: application/json\r\n${framing}\r\n\r\n`;
  const first = '{"messages":[';
  const body = chunked ? `${first.length.toString(16)}\r\n${first}\r\n` : first;
  await conn.write(new TextEncoder().encode(`${head}${body}`));
  return conn;
}

/** Reads one response (headers and a Content-Length body) from `conn`. */
async function readResponse(conn: Deno.TcpConn) {
  let text = "";
  const buffer = new Uint8Array(4096);
  while (true) {
    const n = await conn.read(buffer);
    if (n === null) break;
    text += new TextDecoder().decode(buffer.subarray(0, n));
    const [head, body = ""] = text.split("\r\n\r\n");
    const length = Number(head.match(/content-length: (\d+)/i)?.[1] ?? NaN);
    if (body.length >= length) break;
  }
  const [head, body] = text.split("\r\n\r\n");
  return {
    status: Number(head.split(" ")[1]),
    requestId: head.match(/x-request-id: (\S+)/i)?.[1],
    body: JSON.parse(body),
  };
}

Deno.test({
  name: "slow request bodies take no slot and are dropped with 408 request_timeout",
  ...NATIVE_SANITIZERS,
  async fn() {
    const app = await startInferApp({ app: { maxConcurrentRequests: 1, bodyTimeoutMs: 1500 } });
    // Before the first byte is sent: the server's deadline cannot start earlier than this.
    const started = performance.now();
    const slow = await Promise.all(
      Array.from({ length: 4 }, (_, i) => startTrickle(app.baseUrl, i % 2 === 1)),
    );
    try {
      const served = await fetch(`${app.baseUrl}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], max_tokens: 2 }),
      });
      assert.equal(served.status, 200, "four trickling uploads hold no generation slot");
      await served.body?.cancel();
      const answers = await Promise.all(slow.map(readResponse));
      const waited = performance.now() - started;
      for (const answer of answers) {
        assert.equal(answer.status, 408);
        const body = ErrorBodySchema.strict().parse(answer.body);
        assert.equal(body.error.code, "request_timeout");
        assert.equal(body.error.type, "invalid_request_error");
        assert.ok(answer.requestId);
      }
      // Not before the deadline; how long after it is the machine's load (only a 408
      // request_timeout proves the deadline fired: without one these reads never end).
      assert.ok(waited >= 1200, `dropped after ${waited.toFixed(0)} ms`);
      assert.equal(app.logs.filter((line) => / 408 /.test(line)).length, 4);
    } finally {
      for (const conn of slow) conn.close();
      await app.stop();
    }
  },
});
