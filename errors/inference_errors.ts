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
import {
  type CodeEntry,
  type ContractError,
  createErrorRenderer,
  type RenderedError,
  serviceErrorClass,
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

/** An error of `tolk infer` carrying its contract code. */
export class InferenceError extends serviceErrorClass("InferenceError", INFERENCE_ERROR_CODES) {}

/** Where each refusal of the runtime lands on the wire. */
const GENERATION_FAILURES: Record<
  GenerationFailure["kind"],
  { code: InferenceErrorCode; param: string | null }
> = {
  model_not_ready: { code: "model_not_ready", param: null },
  context_overflow: { code: "context_length_exceeded", param: "messages" },
  grammar: { code: "invalid_request", param: "response_format.json_schema.schema" },
  logit_bias: { code: "invalid_request", param: "logit_bias" },
};

/** Maps an error of the runtime to a contract error; undefined when it is not one of them. */
function fromRuntimeError(thrown: unknown): ContractError<InferenceErrorCode> | undefined {
  if (!(thrown instanceof GenerationError)) return undefined;
  const { code, param } = GENERATION_FAILURES[thrown.failure.kind];
  return inferenceError(code, thrown.message, { param, cause: thrown });
}

const renderer = createErrorRenderer<InferenceErrorCode>({
  errorClass: InferenceError,
  fromDomain: fromRuntimeError,
  tooLarge: {
    code: "request_too_large",
    message: "request body is larger than --max-request-bytes",
  },
  invalidCode: "invalid_request",
  internalCode: "internal_error",
});

/**
 * Makes a contract error: the one error factory of `tolk infer`.
 *
 * @example
 * ```ts
 * throw inferenceError("invalid_request", "messages must not be empty", { param: "messages" });
 * ```
 */
export const inferenceError = renderer.make;

/** The `{error:{message,type,param,code}}` body of a contract error. */
export const inferenceErrorBody: (error: ContractError<InferenceErrorCode>) => ErrorBody =
  renderer.body;

/** What `app.onError` sends: status, body, the extra headers, and whether to log it. */
export type RenderedInferenceError = RenderedError<InferenceErrorCode>;

/**
 * Renders anything thrown while serving. A refused generation gets its contract code; Hono's
 * body-limit 413 and malformed-JSON 400 are mapped by status; an unknown error becomes
 * `internal_error` with a fixed message.
 */
export const renderInferenceError = renderer.render;

/** Maps the first zod issue of a request body to its contract error. */
export const errorFromIssues = renderer.errorFromIssues;

/** The error builders of the JSON body validator (`middleware/json_body.ts`). */
export const INFERENCE_JSON_BODY_ERRORS = renderer.jsonBodyErrors;
