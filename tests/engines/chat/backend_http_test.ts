/**
 * requestJson against real loopback servers: how much of an answer it reads.
 */
import assert from "node:assert/strict";
import { requestJson } from "../../../engines/chat/backend_http.ts";
import { BackendBusyError } from "../../../engines/chat/backend_refusals.ts";
import { EngineFailedError, EngineUnavailableError } from "../../../engines/engine.ts";
import { EngineBusyError } from "../../../engines/engine_queue.ts";

/** Serves `handler` on 127.0.0.1 for the length of `fn`. */
async function withServer(
  handler: (request: Request) => Response,
  fn: (url: string) => Promise<void>,
): Promise<void> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  try {
    await fn(`http://127.0.0.1:${server.addr.port}/api/chat`);
  } finally {
    await server.shutdown();
  }
}

function request(url: string, maxBytes: number) {
  return requestJson({ engine: "engine-one", url, timeoutMs: 10_000, maxBytes });
}

function isOverBound(maxBytes: number) {
  return (error: Error) =>
    error instanceof EngineFailedError &&
    error.message.endsWith(`answered more than ${maxBytes} bytes, more than this request can need`);
}

/** `{"x": "xx…"}` of `bytes` bytes: `{"x":""}` is 8. */
function bodyObject(bytes: number) {
  return { x: "x".repeat(bytes - 8) };
}

/** A body of `bytes` bytes (a JSON object), in 100-byte chunks when `streamed` (no length). */
function jsonBody(bytes: number, streamed: boolean): BodyInit {
  const encoded = new TextEncoder().encode(JSON.stringify(bodyObject(bytes)));
  if (!streamed) return encoded;
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= encoded.length) return controller.close();
      controller.enqueue(encoded.slice(at, at += 100));
    },
  });
}

const BODY_BOUNDS = [
  { name: "a body of exactly maxBytes with its Content-Length", bytes: 1000, streamed: false },
  { name: "a body one byte over maxBytes with its Content-Length", bytes: 1001, streamed: false },
  { name: "a streamed body of exactly maxBytes", bytes: 1000, streamed: true },
  { name: "a streamed body one byte over maxBytes", bytes: 1001, streamed: true },
];

for (const { name, bytes, streamed } of BODY_BOUNDS) {
  const fits = bytes <= 1000;
  Deno.test(`requestJson ${fits ? "reads" : "refuses"} ${name} (1000)`, async () => {
    await withServer(() => new Response(jsonBody(bytes, streamed)), async (url) => {
      if (fits) assert.deepEqual(await request(url, 1000), bodyObject(bytes));
      else await assert.rejects(request(url, 1000), isOverBound(1000));
    });
  });
}

Deno.test("requestJson stops reading an endless answer at its bound and drops the connection", async () => {
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  const backendBytes = 150 * 1024 * 1024;
  let sent = 0;
  await withServer(() =>
    new Response(
      new ReadableStream({
        pull(controller) {
          if (sent >= backendBytes) return controller.close();
          sent += chunk.length;
          controller.enqueue(chunk);
        },
      }),
    ), async (url) => {
    await assert.rejects(request(url, 100_000), isOverBound(100_000));
  });
  // What the socket buffers took before the client hung up, never the 150 MB.
  assert.ok(sent < 16 * 1024 * 1024, `the backend sent ${sent} bytes`);
});

Deno.test("requestJson: a 429, or a 503 with Retry-After, is busy (retry in the server's time); another 503, a 502, 401 or 403 is unavailable", async () => {
  const cases: [number, Record<string, string>, (error: Error) => boolean][] = [
    [
      429,
      { "retry-after": "7" },
      (e) => e instanceof BackendBusyError && e.retryAfterSeconds === 7,
    ],
    [429, {}, (e) => e instanceof BackendBusyError && e.retryAfterSeconds === 1],
    [
      503,
      { "retry-after": "3600" },
      (e) => e instanceof BackendBusyError && e.retryAfterSeconds === 60,
    ],
    [
      503,
      {},
      (e) =>
        e instanceof EngineUnavailableError && !(e instanceof EngineBusyError) &&
        /HTTP 503: the model is loading/.test(e.message),
    ],
    // A proxy that cannot reach its model server is unavailable as that server is; one whose
    // server was too slow failed, as tolk's own timeout does.
    [502, {}, (e) => e instanceof EngineUnavailableError && /HTTP 502/.test(e.message)],
    [504, {}, (e) => e instanceof EngineFailedError && /HTTP 504/.test(e.message)],
    // A refused key: no text can go through that server (llama-server lists its models without
    // one, so the engine looked ready).
    [401, {}, (e) => e instanceof EngineUnavailableError && /HTTP 401/.test(e.message)],
    [403, {}, (e) => e instanceof EngineUnavailableError && /HTTP 403/.test(e.message)],
    [400, {}, (e) => e instanceof EngineFailedError && /HTTP 400/.test(e.message)],
  ];
  for (const [status, headers, expected] of cases) {
    await withServer(
      () => Response.json({ error: { message: "the model is loading" } }, { status, headers }),
      async (url) => {
        await assert.rejects(request(url, 1024), (error: Error) => {
          assert.ok(
            expected(error),
            `${status} ${JSON.stringify(headers)}: ${error.name} ${error.message}`,
          );
          return true;
        });
      },
    );
  }
});
