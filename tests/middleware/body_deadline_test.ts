import assert from "node:assert/strict";
import { Hono } from "hono";
import { bodyDeadline } from "../../middleware/body_deadline.ts";

class Timeout extends Error {}

/** A tiny app: the middleware, then a handler echoing the JSON body it reads. */
function serve(timeoutMs: number) {
  const app = new Hono()
    .use(bodyDeadline({ timeoutMs, reject: () => new Timeout() }))
    .post("/", async (c) => c.json(await c.req.json()));
  app.onError((error, c) => c.text(error instanceof Timeout ? "timeout" : "other", 408));
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
}

Deno.test("bodyDeadline buffers a body that arrives in time and the handler reads it", async () => {
  const server = serve(1000);
  try {
    const response = await fetch(`http://127.0.0.1:${server.addr.port}/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    assert.deepEqual(await response.json(), { a: 1 });
  } finally {
    await server.shutdown();
  }
});

Deno.test("bodyDeadline rejects a body that has not arrived by the deadline", async () => {
  const server = serve(300);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  try {
    await conn.write(
      new TextEncoder().encode(
        'POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 50\r\n\r\n{"a":',
      ),
    );
    const buffer = new Uint8Array(1024);
    const n = await conn.read(buffer);
    const text = new TextDecoder().decode(buffer.subarray(0, n ?? 0));
    assert.match(text, /^HTTP\/1\.1 408/);
    assert.match(text, /timeout$/);
  } finally {
    conn.close();
    await server.shutdown();
  }
});

Deno.test("bodyDeadline refuses a deadline that is not positive at construction", () => {
  assert.throws(() => bodyDeadline({ timeoutMs: 0, reject: () => new Timeout() }), RangeError);
});
