import assert from "node:assert/strict";
import { Hono } from "hono";
import { bufferedBody } from "../../middleware/buffered_body.ts";

class Timeout extends Error {}
class TooLarge extends Error {}

/** A tiny app: the middleware, then a handler echoing the JSON body it reads. */
function serve(timeoutMs: number, maxSize = 1024) {
  const app = new Hono()
    .use(bufferedBody({
      maxSize,
      tooLarge: () => new TooLarge(),
      timeoutMs,
      timeout: () => new Timeout(),
    }))
    .post("/", async (c) => c.json(await c.req.json()));
  app.onError((error, c) =>
    error instanceof TooLarge ? c.text("too large", 413) : c.text(
      error instanceof Timeout ? "timeout" : "other",
      408,
    )
  );
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
}

/** A body without Content-Length: `fetch` sends a stream chunked. */
const chunked = (...parts: string[]) =>
  ReadableStream.from(parts.map((part) => new TextEncoder().encode(part)));

/** Sends raw HTTP/1.1 that stops before the body ends; returns the first bytes answered. */
async function trickle(port: number, request: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(new TextEncoder().encode(request));
    const buffer = new Uint8Array(1024);
    const n = await conn.read(buffer);
    return new TextDecoder().decode(buffer.subarray(0, n ?? 0));
  } finally {
    conn.close();
  }
}

Deno.test("bufferedBody buffers a body that arrives in time, with a length or chunked", async () => {
  const server = serve(1000);
  try {
    for (const body of ['{"a":1}', chunked('{"a"', ":1}")]) {
      const response = await fetch(`http://127.0.0.1:${server.addr.port}/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      assert.deepEqual(await response.json(), { a: 1 });
    }
  } finally {
    await server.shutdown();
  }
});

Deno.test("bufferedBody rejects a body that has not arrived by the deadline, chunked too", async () => {
  const server = serve(300);
  try {
    const head = "POST / HTTP/1.1\r\nHost: localhost\r\n";
    for (
      const request of [
        `${head}Content-Length: 50\r\n\r\n{"a":`,
        `${head}Transfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\n`,
      ]
    ) {
      const text = await trickle(server.addr.port, request);
      assert.match(text, /^HTTP\/1\.1 408/);
      assert.match(text, /timeout$/);
    }
  } finally {
    await server.shutdown();
  }
});

Deno.test("bufferedBody refuses a body over the limit: by its length before reading, chunked as it passes", async () => {
  const server = serve(60_000, 16);
  try {
    // Declared too large: refused at once, though the body never comes.
    const declared = await trickle(
      server.addr.port,
      "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 17\r\n\r\n",
    );
    assert.match(declared, /^HTTP\/1\.1 413/);
    // Chunked: refused once past the limit, before the body ends.
    const passed = await trickle(
      server.addr.port,
      "POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n11\r\n" +
        `{"a":"${"x".repeat(11)}\r\n`,
    );
    assert.match(passed, /^HTTP\/1\.1 413/);
    const small = await fetch(`http://127.0.0.1:${server.addr.port}/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chunked('{"a":', '"xxxxxxxx"}'),
    });
    assert.deepEqual(await small.json(), { a: "xxxxxxxx" });
  } finally {
    await server.shutdown();
  }
});

Deno.test("bufferedBody refuses a deadline that is not positive at construction", () => {
  assert.throws(
    () =>
      bufferedBody({
        maxSize: 1,
        tooLarge: () => new TooLarge(),
        timeoutMs: 0,
        timeout: () => new Timeout(),
      }),
    RangeError,
  );
});
