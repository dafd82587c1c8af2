/**
 * What a `tolk infer` daemon with default flags refuses, and the headers of every answer: an
 * image part, malformed and out-of-range requests, unknown paths, a foreign Host, request ids and
 * CORS (inference_app_test.ts drives what it serves).
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { ErrorBodySchema } from "../../schemas/openai.ts";
import { startInferDaemon } from "../support/infer_daemon.ts";
import { assertInferError as assertError, HI, postChat } from "../support/infer_requests.ts";
import { rawGet } from "../support/raw_http.ts";

Deno.test("tolk infer (default flags) refuses over HTTP", async (t) => {
  const daemon = await startInferDaemon();
  const { baseUrl } = daemon;
  const client = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: "unused", maxRetries: 0 });
  try {
    await t.step(
      "openai client: an image part is a 400 that says image parts are not supported",
      async () => {
        const error = await client.chat.completions.create({
          model: "tiny",
          max_tokens: 2,
          messages: [{
            role: "user",
            content: [
              { type: "text", text: "What is in this picture?" },
              { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
            ],
          }],
        }).then(() => assert.fail("an image part was accepted"), (error) => error);
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.equal(error.param, "messages[0].content");
        assert.match(error.message, /image.*not supported/);
      },
    );

    const ERROR_ROWS: Array<{
      name: string;
      body: string;
      headers?: Record<string, string>;
      status: number;
      code: string;
      param?: string | null;
      /** What the message must say, where zod's own words ("Invalid input") said nothing. */
      message?: RegExp;
    }> = [
      { name: "malformed JSON", body: "{nope", status: 400, code: "invalid_request", param: null },
      {
        name: "a wrong field type",
        body: JSON.stringify({ messages: HI, temperature: "hot" }),
        status: 400,
        code: "invalid_request",
        param: "temperature",
      },
      {
        name: "empty messages",
        body: JSON.stringify({ messages: [] }),
        status: 400,
        code: "invalid_request",
        param: "messages",
        // It once read "messages: messages must not be empty".
        message: /^messages must not be empty$/,
      },
      {
        name: "n = 2",
        body: JSON.stringify({ messages: HI, n: 2 }),
        status: 400,
        code: "invalid_request",
        param: "n",
        message: /only 1/,
      },
      {
        name: "five stop sequences",
        body: JSON.stringify({ messages: HI, stop: ["a", "b", "c", "d", "e"] }),
        status: 400,
        code: "invalid_request",
        param: "stop",
        message: /at most 4/,
      },
      {
        name: "a body that is not JSON by Content-Type",
        body: JSON.stringify({ messages: HI }),
        headers: { "content-type": "text/plain" },
        status: 400,
        code: "invalid_request",
      },
      {
        name: "a prompt longer than the context",
        body: JSON.stringify({
          messages: [{ role: "user", content: "zq xj ".repeat(1500) }],
          max_tokens: 1,
        }),
        status: 400,
        code: "context_length_exceeded",
        param: "messages",
      },
      {
        name: "max_tokens beyond the room left in the context",
        body: JSON.stringify({ messages: HI, max_tokens: 4000 }),
        status: 400,
        code: "context_length_exceeded",
        message: /the request needs \d+ prompt tokens \+ 4000 max_tokens$/,
      },
      // The message names the field the request used, not always max_tokens.
      {
        name: "max_completion_tokens beyond the room left in the context",
        body: JSON.stringify({ messages: HI, max_completion_tokens: 4000 }),
        status: 400,
        code: "context_length_exceeded",
        message: /the request needs \d+ prompt tokens \+ 4000 max_completion_tokens$/,
      },
      {
        name: "a prompt longer than the context, with max_completion_tokens",
        body: JSON.stringify({
          messages: [{ role: "user", content: "zq xj ".repeat(1500) }],
          max_completion_tokens: 1,
        }),
        status: 400,
        code: "context_length_exceeded",
        message: /the request needs more than \d+ prompt tokens \+ 1 max_completion_tokens$/,
      },
      {
        name: "a schema keyword no grammar enforces",
        body: JSON.stringify({
          messages: HI,
          response_format: {
            type: "json_schema",
            json_schema: { name: "p", schema: { type: "string", pattern: "^a$" } },
          },
        }),
        status: 400,
        code: "invalid_request",
        param: "response_format.json_schema.schema",
      },
    ];
    for (const row of ERROR_ROWS) {
      await t.step(`POST /v1/chat/completions refuses ${row.name} with ${row.code}`, async () => {
        const body = await assertError(
          await postChat(baseUrl, row.body, row.headers),
          row.status,
          row.code,
          row.param,
        );
        if (row.message) assert.match(body.error.message, row.message);
      });
    }

    await t.step("an unknown path is 404 not_found naming the request", async () => {
      const body = await assertError(await fetch(`${baseUrl}/v1/nothing`), 404, "not_found");
      assert.equal(body.error.message, "no such endpoint: GET /v1/nothing");
      // Served without the slash only (as llama-server): the message must not say it answers GET.
      const slash = await assertError(await fetch(`${baseUrl}/v1/models/`), 404, "not_found");
      assert.equal(slash.error.message, "no such endpoint: GET /v1/models/");
    });

    // llama-server (cpp-httplib) answers a wrong method on a served path with its 404, and
    // OpenAI with 404 "Invalid URL (GET /v1/chat/completions)": 404 stays, and says what the
    // path does answer.
    const WRONG_METHODS = [
      { method: "GET", path: "/v1/chat/completions", answers: "POST" },
      { method: "DELETE", path: "/v1/models", answers: "GET" },
      { method: "POST", path: "/v1/models/tiny", answers: "GET" },
      { method: "PUT", path: "/health", answers: "GET" },
    ];
    for (const { method, path, answers } of WRONG_METHODS) {
      await t.step(`${method} ${path} is 404 not_found saying it answers ${answers}`, async () => {
        const response = await fetch(`${baseUrl}${path}`, { method });
        const body = await assertError(response, 404, "not_found", null);
        assert.equal(
          body.error.message,
          `no such endpoint: ${method} ${path} (this path answers ${answers})`,
        );
      });
    }

    await t.step("a foreign Host header is 403 host_not_allowed", async () => {
      const response = await rawGet(baseUrl, "/v1/models", { Host: "evil.example" });
      assert.equal(response.status, 403);
      const { error } = ErrorBodySchema.parse(JSON.parse(response.body));
      assert.equal(error.code, "host_not_allowed");
      // Says what it accepts: 127.0.0.2 and [::1] pass too, not only localhost.
      assert.equal(
        error.message,
        "the Host header must name loopback (localhost, 127.0.0.0/8 or [::1], any port)",
      );
      assert.ok(response.headers.get("x-request-id"));
      const ok = await rawGet(baseUrl, "/health", { Host: "localhost:9" });
      assert.equal(ok.status, 200);
    });

    await t.step("a safe client x-request-id is echoed, an unsafe one replaced", async () => {
      const safe = await fetch(`${baseUrl}/health`, { headers: { "x-request-id": "abc.DEF_1-2" } });
      await safe.body?.cancel();
      assert.equal(safe.headers.get("x-request-id"), "abc.DEF_1-2");
      const unsafe = await fetch(`${baseUrl}/health`, { headers: { "x-request-id": "a b" } });
      await unsafe.body?.cancel();
      assert.notEqual(unsafe.headers.get("x-request-id"), "a b");
    });

    await t.step("no CORS headers without --cors-origin", async () => {
      const response = await fetch(`${baseUrl}/v1/models`, {
        headers: { origin: "http://localhost:3000" },
      });
      await response.body?.cancel();
      assert.equal(response.headers.get("access-control-allow-origin"), null);
    });
  } finally {
    assert.equal(await daemon.stop(), 0);
  }
});
