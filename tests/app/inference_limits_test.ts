/**
 * `tolk infer` limits, key, CORS and model states, each against a real daemon over HTTP.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { StatusSchema } from "../../schemas/openai.ts";
import { startInferDaemon, TINY_GGUF } from "../support/infer_daemon.ts";
import { assertInferError as assertError, HI } from "../support/infer_requests.ts";

const KEY = "test-key-0123456789";
const AUTH = { authorization: `Bearer ${KEY}` };
const ORIGIN = "http://localhost:3000";

/** A request body that sends `first`, then waits until `finish(rest)` is called. */
function heldBody(first: string) {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(encoder.encode(first));
    },
  });
  return {
    stream,
    finish(rest = "") {
      if (rest) controller.enqueue(encoder.encode(rest));
      controller.close();
    },
  };
}

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}

Deno.test("tolk infer with a key, one slot, a small body limit, CORS and an exposed path", async (t) => {
  const daemon = await startInferDaemon({
    args: [
      "--max-concurrent-requests",
      "1",
      "--max-queued-requests",
      "1",
      "--max-request-bytes",
      "4096",
      "--cors-origin",
      ORIGIN,
      "--expose-model-path",
    ],
    env: { SVC_API_KEY: KEY },
  });
  const { baseUrl } = daemon;
  const chat = (body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...AUTH, ...headers },
      body,
    });
  try {
    await t.step("GET /health needs no key", async () => {
      const response = await fetch(`${baseUrl}/health`);
      await response.body?.cancel();
      assert.equal(response.status, 200);
    });

    for (
      const [name, headers] of [
        ["a missing key", {}],
        ["a wrong key", { authorization: "Bearer nope" }],
        ["a key sent without Bearer", { authorization: KEY }],
      ] as const
    ) {
      await t.step(`GET /v1/models with ${name} is 401 invalid_api_key`, async () => {
        const response = await fetch(`${baseUrl}/v1/models`, { headers });
        assert.equal(response.headers.get("www-authenticate"), 'Bearer realm="tolk"');
        const body = await assertError(response, 401, "invalid_api_key");
        assert.equal(body.error.type, "authentication_error");
        assert.ok(!body.error.message.includes(KEY));
      });
    }

    await t.step("the openai client with the key gets a completion", async () => {
      const client = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: KEY, maxRetries: 0 });
      const completion = await client.chat.completions.create({
        model: "tiny",
        messages: [{ role: "user", content: "hi" }],
        max_tokens: 3,
      });
      assert.equal(completion.usage?.completion_tokens, 3);
    });

    await t.step("--expose-model-path shows the model path in /v1/status", async () => {
      const status = StatusSchema.parse(
        await (await fetch(`${baseUrl}/v1/status`, { headers: AUTH })).json(),
      );
      assert.equal(status.active_model.path, TINY_GGUF);
    });

    await t.step("a body over --max-request-bytes by Content-Length is 413", async () => {
      const big = JSON.stringify({ messages: [{ role: "user", content: "x".repeat(5000) }] });
      await assertError(await chat(big), 413, "request_too_large");
    });

    await t.step("a streamed body within the limit is read once and answered", async () => {
      // Without Content-Length: read once within the size limit and the deadline, then served
      // from memory to the validator.
      const held = heldBody('{"messages":[{"role":"user",');
      const response = chat(held.stream);
      held.finish('"content":"hi"}],"max_tokens":2}');
      const completion = await (await response).json();
      assert.equal(completion.usage?.completion_tokens, 2, JSON.stringify(completion));
    });

    await t.step(
      "a streamed body is refused once it passes the limit, before it ends",
      async () => {
        const held = heldBody(`{"messages":[{"role":"user","content":"${"y".repeat(6000)}`);
        const response = await chat(held.stream);
        await assertError(response, 413, "request_too_large");
        held.finish();
      },
    );

    await t.step("preflight from the allowed origin gets CORS headers", async () => {
      const response = await fetch(`${baseUrl}/v1/chat/completions`, {
        method: "OPTIONS",
        headers: {
          origin: ORIGIN,
          "access-control-request-method": "POST",
          // What the `openai` client sends from a browser.
          "access-control-request-headers":
            "authorization,content-type,x-stainless-os,x-stainless-lang,x-stainless-retry-count",
        },
      });
      await response.body?.cancel();
      assert.equal(response.status, 204);
      assert.equal(response.headers.get("access-control-allow-origin"), ORIGIN);
      const allowed = response.headers.get("access-control-allow-headers")!.toLowerCase();
      for (
        const header of ["authorization", "content-type", "x-stainless-os", "x-stainless-lang"]
      ) {
        assert.ok(allowed.split(/\s*,\s*/).includes(header), `${header} in ${allowed}`);
      }
    });

    await t.step("another origin gets no CORS headers", async () => {
      const response = await fetch(`${baseUrl}/v1/models`, {
        headers: { ...AUTH, origin: "http://evil.example" },
      });
      await response.body?.cancel();
      assert.equal(response.headers.get("access-control-allow-origin"), null);
      const allowed = await fetch(`${baseUrl}/v1/models`, { headers: { ...AUTH, origin: ORIGIN } });
      await allowed.body?.cancel();
      assert.equal(allowed.headers.get("access-control-allow-origin"), ORIGIN);
    });

    await t.step(
      "beyond --max-concurrent-requests one request waits in the queue; beyond the queue is 503 server_busy with Retry-After",
      async () => {
        // A running generation holds the one slot (an upload does not: see the slow-body test).
        const running = await chat(
          JSON.stringify({ messages: HI, max_tokens: 1800, stream: true }),
        );
        const reader = running.body!.getReader();
        await reader.read();
        // Two more at once: one takes the queue's one place, the other is refused at once.
        const both = [0, 1].map(() => chat(JSON.stringify({ messages: HI, max_tokens: 2 })));
        const first = await Promise.race(both.map((answer, i) => answer.then(() => i)));
        const busy = await both[first];
        const body = await assertError(busy, 503, "server_busy");
        assert.equal(body.error.type, "server_error");
        assert.equal(body.error.message, "1 generation is running and 1 waiting");
        assert.ok(Number(busy.headers.get("retry-after")) >= 1);
        await reader.cancel(); // the slot frees: the queued request runs
        const queued = await both[1 - first];
        assert.equal(queued.status, 200, "the queued request ran once the slot was free");
        assert.equal((await queued.json()).usage.completion_tokens, 2);
        const id = running.headers.get("x-request-id")!;
        const ended = await until(
          () => Promise.resolve(daemon.stderr.find((l) => l.startsWith(`${id} generation`))),
          "the running generation to end",
        );
        assert.match(ended, /generation abort/, "the queued request waited for the slot");
      },
    );

    await t.step(
      "a wrong method on /v1/chat/completions answers 404 at once while the slot is held",
      async () => {
        const running = await chat(
          JSON.stringify({ messages: HI, max_tokens: 1800, stream: true }),
        );
        const reader = running.body!.getReader();
        await reader.read();
        try {
          // Two at once: were they let through the concurrency limit, one would wait in the
          // queue's one place until the slot frees and the other would be refused with 503.
          const wrong = ["GET", "PUT"].map((method) =>
            fetch(`${baseUrl}/v1/chat/completions`, {
              method,
              headers: AUTH,
              signal: AbortSignal.timeout(5000),
            })
          );
          for (const response of await Promise.all(wrong)) {
            await assertError(response, 404, "not_found", null);
          }
        } finally {
          await reader.cancel();
        }
      },
    );

    await t.step(
      "a client that disconnects mid-stream aborts its generation and frees the slot",
      async () => {
        const response = await chat(
          JSON.stringify({ messages: HI, max_tokens: 1800, stream: true }),
        );
        const id = response.headers.get("x-request-id")!;
        const reader = response.body!.getReader();
        await reader.read();
        await reader.cancel();
        const line = await until(
          () => Promise.resolve(daemon.stderr.find((l) => l.startsWith(`${id} generation`))),
          "the generation log line",
        );
        assert.match(line, /generation abort/);
        const next = await until(async () => {
          const r = await chat(JSON.stringify({ messages: HI, max_tokens: 2 }));
          if (r.status === 200) return r;
          await r.body?.cancel();
        }, "the slot to be free");
        await next.body?.cancel();
      },
    );
  } finally {
    assert.equal(await daemon.stop(), 0);
  }
});

Deno.test("tolk infer --requests-per-minute 2 answers the third request with 429", async () => {
  const daemon = await startInferDaemon({ args: ["--requests-per-minute", "2"] });
  try {
    for (let i = 0; i < 2; i++) {
      const ok = await fetch(`${daemon.baseUrl}/v1/models`);
      await ok.body?.cancel();
      assert.equal(ok.status, 200);
    }
    const limited = await fetch(`${daemon.baseUrl}/v1/models`);
    const body = await assertError(limited, 429, "rate_limit_exceeded");
    assert.equal(body.error.type, "rate_limit_error");
    assert.ok(Number(limited.headers.get("retry-after")) >= 1);
    const health = await fetch(`${daemon.baseUrl}/health`);
    await health.body?.cancel();
    assert.equal(health.status, 200, "/health is not rate limited");
  } finally {
    await daemon.stop();
  }
});

const BROKEN_MODELS: Array<{ name: string; status: "missing" | "invalid"; make: () => string }> = [
  { name: "a missing model file", status: "missing", make: () => "/nonexistent/model.gguf" },
  {
    name: "a file that is not GGUF",
    status: "invalid",
    make: () => {
      const path = Deno.makeTempFileSync({ suffix: ".gguf" });
      Deno.writeTextFileSync(path, "not a model");
      return path;
    },
  },
];

for (const { name, status, make } of BROKEN_MODELS) {
  Deno.test(`tolk infer with ${name} stays up: /health 503 error, status ${status}`, async () => {
    const model = make();
    const daemon = await startInferDaemon({ model, waitReady: false });
    try {
      const health = await until(async () => {
        const response = await fetch(`${daemon.baseUrl}/health`);
        const body = await response.json();
        if (body.status === "error") return { response, body };
      }, "the load to fail");
      assert.equal(health.response.status, 503);
      const report = StatusSchema.parse(await (await fetch(`${daemon.baseUrl}/v1/status`)).json());
      assert.equal(report.active_model.status, status);
      assert.equal(report.runtime.ready, false);
      const chat = await fetch(`${daemon.baseUrl}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ messages: HI }),
      });
      await assertError(chat, 503, "model_not_ready");
      assert.ok(
        daemon.stderr.some((line) => line.includes("model not loaded") && line.includes(model)),
      );
    } finally {
      await daemon.stop();
      if (status === "invalid") Deno.removeSync(model);
    }
  });
}
