/**
 * The one error factory of `tolk infer`: every error body of the daemon is made here.
 *
 * Routes and middleware throw {@link InferenceError}; `app.onError` renders whatever was thrown
 * with {@link renderInferenceError}, which maps Hono's built-in errors by status and never leaks
 * the message of an unexpected error.
 */
import { ContractError, type ContractErrorOptions } from "./contract_error.ts";
import type { z } from "zod";
import type { ErrorBody } from "../schemas/openai.ts";

/** Status and type of every contract code (DECISIONS.md, "Inference service"). */
export const INFERENCE_ERROR_CODES = {
  invalid_request: { status: 400, type: "invalid_request_error" },
  context_length_exceeded: { status: 400, type: "invalid_request_error" },
  invalid_api_key: { status: 401, type: "authentication_error" },
  host_not_allowed: { status: 403, type: "invalid_request_error" },
  not_found: { status: 404, type: "invalid_request_error" },
  request_too_large: { status: 413, type: "invalid_request_error" },
  rate_limit_exceeded: { status: 429, type: "rate_limit_error" },
  internal_error: { status: 500, type: "server_error" },
  server_busy: { status: 503, type: "server_error" },
  model_not_ready: { status: 503, type: "server_error" },
} as const;

/** A contract error code of the inference daemon. */
export type InferenceErrorCode = keyof typeof INFERENCE_ERROR_CODES;

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

/** The `{error:{message,type,param,code}}` body of a contract error. */
export function inferenceErrorBody(error: InferenceError): ErrorBody {
  return {
    error: { message: error.message, type: error.type, param: error.param, code: error.code },
  };
}

/** What `app.onError` sends: status, body and the extra headers. */
export interface RenderedInferenceError {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** True when the error was not a contract error: the caller logs it. */
  unexpected: boolean;
}

/**
 * Renders anything thrown while serving. Hono's body-limit 413 and malformed-JSON 400 are mapped
 * by status; an unknown error becomes `internal_error` with a fixed message.
 */
export function renderInferenceError(thrown: unknown): RenderedInferenceError {
  const known = thrown instanceof InferenceError;
  const error = known ? thrown : fromForeignError(thrown);
  const headers: Record<string, string> = {};
  if (error.retryAfter !== undefined) headers["Retry-After"] = String(error.retryAfter);
  return {
    status: error.status,
    body: inferenceErrorBody(error),
    headers,
    unexpected: !known && error.code === "internal_error",
  };
}

/** Maps the first zod issue of a request body to its contract error. */
export function errorFromIssues(issues: readonly z.core.$ZodIssue[]): InferenceError {
  const issue = issues[0];
  const param = issue ? fieldPath(issue.path) : null;
  if (!issue) return inferenceError("invalid_request", "invalid request body");
  if (issue.code === "invalid_type" && issue.input === undefined && param) {
    return inferenceError("invalid_request", `${param} is required`, { param });
  }
  return inferenceError("invalid_request", `${param ?? "request body"}: ${issue.message}`, {
    param,
  });
}

/** The error builders of the JSON body validator (`middleware/json_body.ts`). */
export const INFERENCE_JSON_BODY_ERRORS = {
  invalid: errorFromIssues,
  notJson: () =>
    inferenceError("invalid_request", "the body must be JSON with Content-Type: application/json"),
};

function fromForeignError(thrown: unknown): InferenceError {
  const status = (thrown as { status?: unknown } | null)?.status;
  if (status === 413) {
    return inferenceError("request_too_large", "request body is larger than --max-request-bytes");
  }
  if (status === 400) return inferenceError("invalid_request", "malformed JSON in request body");
  return inferenceError("internal_error", "internal error");
}

/** `messages[0].content` from a zod path; null for the body itself. */
function fieldPath(path: readonly PropertyKey[]): string | null {
  let out = "";
  for (const segment of path) {
    out += typeof segment === "number" ? `[${segment}]` : `${out ? "." : ""}${String(segment)}`;
  }
  return out || null;
}
