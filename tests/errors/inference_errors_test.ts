import assert from "node:assert/strict";
import { inferenceError, renderInferenceError } from "../../errors/inference_errors.ts";
import { GenerationError, type GenerationFailure } from "../../inference/generation.ts";
import { ErrorBodySchema } from "../../schemas/openai.ts";

/** Every refusal of the runtime and where it lands on the wire. */
const GENERATION_ROWS: Array<{
  failure: GenerationFailure;
  status: number;
  code: string;
  param: string | null;
  message: RegExp;
}> = [
  {
    failure: { kind: "model_not_ready", phase: "loading" },
    status: 503,
    code: "model_not_ready",
    param: null,
    message: /loading; retry shortly/,
  },
  {
    failure: { kind: "model_not_ready", phase: "error" },
    status: 503,
    code: "model_not_ready",
    param: null,
    message:
      /^the model failed to load \(see \/v1\/status\); restart the daemon with a valid model$/,
  },
  {
    failure: { kind: "model_not_ready", phase: "stopping" },
    status: 503,
    code: "model_not_ready",
    param: null,
    message: /stopping/,
  },
  {
    failure: { kind: "context_overflow", promptTokens: 30, maxTokens: 4000, contextSize: 2048 },
    status: 400,
    code: "context_length_exceeded",
    param: "messages",
    message: /context is 2048 tokens; the request needs 30 prompt tokens \+ 4000 max_tokens/,
  },
  {
    failure: { kind: "grammar", reason: "too deep" },
    status: 400,
    code: "invalid_request",
    param: "response_format.json_schema.schema",
    message: /^response_format schema: too deep$/,
  },
];

for (const { failure, status, code, param, message } of GENERATION_ROWS) {
  Deno.test(`renderInferenceError maps a ${failure.kind} refusal to ${status} ${code}`, () => {
    const rendered = renderInferenceError(new GenerationError(failure));
    assert.equal(rendered.status, status);
    assert.equal(rendered.unexpected, false);
    const body = ErrorBodySchema.strict().parse(rendered.body);
    assert.equal(body.error.code, code);
    assert.equal(body.error.param, param);
    assert.match(body.error.message, message);
  });
}

Deno.test("renderInferenceError hides an unexpected error's message behind internal_error", () => {
  const rendered = renderInferenceError(new Error("user text here"));
  assert.equal(rendered.status, 500);
  assert.equal(rendered.unexpected, true);
  assert.deepEqual(rendered.body.error, {
    message: "internal error",
    type: "server_error",
    param: null,
    code: "internal_error",
  });
});

Deno.test("renderInferenceError sends Retry-After for a contract error that carries one", () => {
  const rendered = renderInferenceError(inferenceError("server_busy", "busy", { retryAfter: 1 }));
  assert.equal(rendered.status, 503);
  assert.deepEqual(rendered.headers, { "Retry-After": "1" });
});
