import assert from "node:assert/strict";
import { HTTPException } from "hono/http-exception";
import { EngineFailedError, EngineUnavailableError } from "../../engines/engine.ts";
import { EngineBusyError } from "../../engines/engine_queue.ts";
import {
  errorFromIssues,
  renderTranslationError,
  serviceError,
} from "../../errors/translation_errors.ts";
import { ErrorResponseSchema, TranslateRequestSchema } from "../../schemas/translation.ts";

const RENDER_CASES: {
  name: string;
  thrown: unknown;
  status: number;
  code: string;
  message: string | RegExp;
  unexpected: boolean;
  retryAfter?: string;
}[] = [
  {
    name: "a contract error",
    thrown: serviceError("not_found", "no such endpoint"),
    status: 404,
    code: "not_found",
    message: "no such endpoint",
    unexpected: false,
  },
  {
    name: "an unavailable engine (routine: named once, not logged)",
    thrown: new EngineUnavailableError("engine-one", "cannot reach http://127.0.0.1:9"),
    status: 503,
    code: "engine_unavailable",
    message: "engine-one is unavailable: cannot reach http://127.0.0.1:9",
    unexpected: false,
  },
  {
    name: "a busy engine",
    thrown: new EngineBusyError("local-llm", 2),
    status: 503,
    code: "engine_unavailable",
    message: /local-llm is busy/,
    unexpected: false,
    retryAfter: "2",
  },
  {
    name: "a failed engine",
    thrown: new EngineFailedError("engine-two", "bad output after 3 attempts"),
    status: 500,
    code: "internal_error",
    message: "engine-two failed: bad output after 3 attempts",
    unexpected: false,
  },
  {
    name: "Hono's body limit",
    thrown: new HTTPException(413),
    status: 413,
    code: "payload_too_large",
    message: "request body is too large",
    unexpected: false,
  },
  {
    name: "Hono's malformed JSON",
    thrown: new HTTPException(400, { message: "Malformed JSON in request body" }),
    status: 400,
    code: "invalid_request",
    message: "malformed JSON in request body",
    unexpected: false,
  },
  {
    name: "a bug (its message never leaks)",
    thrown: new TypeError("secret text of the user"),
    status: 500,
    code: "internal_error",
    message: "internal error",
    unexpected: true,
  },
  {
    name: "a thrown string",
    thrown: "boom",
    status: 500,
    code: "internal_error",
    message: "internal error",
    unexpected: true,
  },
];

Deno.test("renderTranslationError renders each kind of thrown value by one rule", () => {
  for (const row of RENDER_CASES) {
    const rendered = renderTranslationError(row.thrown);
    const body = ErrorResponseSchema.parse(rendered.body);
    assert.equal(rendered.status, row.status, row.name);
    assert.equal(body.error.code, row.code, row.name);
    if (typeof row.message === "string") assert.equal(body.error.message, row.message, row.name);
    else assert.match(body.error.message, row.message, row.name);
    assert.equal(rendered.unexpected, row.unexpected, row.name);
    assert.equal(rendered.headers["Retry-After"], row.retryAfter, row.name);
  }
});

const ISSUE_CASES: {
  name: string;
  body: unknown;
  status: number;
  code: string;
  param: string | null;
}[] = [
  {
    name: "a body that is not an object",
    body: [1],
    status: 400,
    code: "invalid_request",
    param: null,
  },
  {
    name: "a missing target",
    body: { texts: ["a"] },
    status: 400,
    code: "invalid_request",
    param: "target",
  },
  {
    name: "an unknown nested option",
    body: { target: "de", texts: ["a"], options: { foo: 1 } },
    status: 400,
    code: "invalid_request",
    param: "options.foo",
  },
  {
    name: "an item that is not a string",
    body: { target: "de", texts: ["a", 2] },
    status: 400,
    code: "invalid_request",
    param: "texts[1]",
  },
  {
    name: "an unsupported target",
    body: { target: "xx", texts: ["a"] },
    status: 422,
    code: "unsupported_language",
    param: "target",
  },
  {
    name: "129 items",
    body: { target: "de", texts: Array(129).fill("a") },
    status: 413,
    code: "batch_too_large",
    param: "texts",
  },
  {
    name: "an item over 8000 characters",
    body: { target: "de", texts: ["a".repeat(8001)] },
    status: 413,
    code: "payload_too_large",
    param: "texts",
  },
];

Deno.test("errorFromIssues maps each validation failure to its code and field path", () => {
  for (const row of ISSUE_CASES) {
    const parsed = TranslateRequestSchema.safeParse(row.body);
    assert.equal(parsed.success, false, row.name);
    const error = errorFromIssues(parsed.error!.issues);
    assert.equal(error.status, row.status, row.name);
    assert.equal(error.code, row.code, row.name);
    assert.equal(error.param, row.param, row.name);
  }
});
