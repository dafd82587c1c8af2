/**
 * The error factory of `tolk infer`: its code table and the map of runtime errors to codes. The
 * rendering, the zod mapping and the field-path style are shared (`contract_error.ts`).
 *
 * Routes and middleware throw {@link InferenceError}; `app.onError` renders whatever was thrown
 * with {@link renderInferenceError}, which maps the runtime's {@link GenerationError} to its wire
 * code (the one place that does), maps Hono's built-in errors by status, and never leaks the
 * message of an unexpected error.
 *
 * `inference/generation.ts` is imported here as `engines/engine.ts` is by the translation
 * factory: a leaf module of words with no imports of its own.
 */
import type { z } from "zod";
import {
  type CodeEntry,
  ContractError,
  type ContractErrorOptions,
  createErrorRenderer,
  type RenderedError,
} from "./contract_error.ts";
import { GenerationError, type GenerationFailure } from "../inference/generation.ts";
import type { ErrorBody, InferenceErrorCode } from "../schemas/openai.ts";

/** Status and type of every contract code (DECISIONS.md, "Inference service"). */
export const INFERENCE_ERROR_CODES: Record<InferenceErrorCode, CodeEntry> = {
  invalid_request: { status: 400, type: "invalid_request_error" },
  context_length_exceeded: { status: 400, type: "invalid_request_error" },
  invalid_api_key: { status: 401, type: "authentication_error" },
  host_not_allowed: { status: 403, type: "invalid_request_error" },
  not_found: { status: 404, type: "invalid_request_error" },
  request_timeout: { status: 408, type: "invalid_request_error" },
  request_too_large: { status: 413, type: "invalid_request_error" },
  rate_limit_exceeded: { status: 429, type: "rate_limit_error" },
  internal_error: { status: 500, type: "server_error" },
  server_busy: { status: 503, type: "server_error" },
  model_not_ready: { status: 503, type: "server_error" },
};

/** A contract error code of the inference daemon. */
export type { InferenceErrorCode };

/** Options of {@link InferenceError}: `param` is e.g. `messages[0].content`. */
export type InferenceErrorOptions = ContractErrorOptions;

/** An error of `tolk infer` carrying its contract code. */
export class InferenceError extends ContractError<InferenceErrorCode> {
  override name = "InferenceError";

  constructor(code: InferenceErrorCode, message: string, options: InferenceErrorOptions = {}) {
    super(code, INFERENCE_ERROR_CODES[code], message, options);
  }
}

/**
 * Makes a contract error.
 *
 * @example
 * ```ts
 * throw inferenceError("invalid_request", "messages must not be empty", { param: "messages" });
 * ```
 */
export function inferenceError(
  code: InferenceErrorCode,
  message: string,
  options?: InferenceErrorOptions,
): InferenceError {
  return new InferenceError(code, message, options);
}

/** Where each refusal of the runtime lands on the wire. */
const GENERATION_FAILURES: Record<
  GenerationFailure["kind"],
  { code: InferenceErrorCode; param: string | null }
> = {
  model_not_ready: { code: "model_not_ready", param: null },
  context_overflow: { code: "context_length_exceeded", param: "messages" },
  grammar: { code: "invalid_request", param: "response_format.json_schema.schema" },
};

/** Maps an error of the runtime to a contract error; undefined when it is not one of them. */
function fromRuntimeError(thrown: unknown): InferenceError | undefined {
  if (!(thrown instanceof GenerationError)) return undefined;
  const { code, param } = GENERATION_FAILURES[thrown.failure.kind];
  return inferenceError(code, thrown.message, { param, cause: thrown });
}

const renderer = createErrorRenderer<InferenceErrorCode>({
  make: inferenceError,
  owns: (thrown): thrown is InferenceError => thrown instanceof InferenceError,
  fromDomain: fromRuntimeError,
  tooLarge: () =>
    inferenceError("request_too_large", "request body is larger than --max-request-bytes"),
  malformedJson: () => inferenceError("invalid_request", "malformed JSON in request body"),
  internal: () => inferenceError("internal_error", "internal error"),
  invalidCode: "invalid_request",
});

/** The `{error:{message,type,param,code}}` body of a contract error. */
export function inferenceErrorBody(error: ContractError<InferenceErrorCode>): ErrorBody {
  return renderer.body(error);
}

/** What `app.onError` sends: status, body, the extra headers, and whether to log it. */
export type RenderedInferenceError = RenderedError<InferenceErrorCode>;

/**
 * Renders anything thrown while serving. A refused generation gets its contract code; Hono's
 * body-limit 413 and malformed-JSON 400 are mapped by status; an unknown error becomes
 * `internal_error` with a fixed message.
 */
export function renderInferenceError(thrown: unknown): RenderedInferenceError {
  return renderer.render(thrown);
}

/** Maps the first zod issue of a request body to its contract error. */
export function errorFromIssues(
  issues: readonly z.core.$ZodIssue[],
): ContractError<InferenceErrorCode> {
  return renderer.errorFromIssues(issues);
}

/** The error builders of the JSON body validator (`middleware/json_body.ts`). */
export const INFERENCE_JSON_BODY_ERRORS = {
  invalid: errorFromIssues,
  notJson: () =>
    inferenceError("invalid_request", "the body must be JSON with Content-Type: application/json"),
};
