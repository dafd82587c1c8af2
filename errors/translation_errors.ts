/**
 * The one error factory of `tolk serve`: every error body of the service is made here.
 *
 * Routes and middleware throw {@link TranslationServiceError}; `app.onError` (and the WebSocket
 * frame loop) render it with {@link errorBody}. Anything else is mapped by
 * {@link toTranslationServiceError}, which never leaks an internal message.
 */
import type { z } from "zod";
import { ContractError, type ContractErrorOptions } from "./contract_error.ts";
import { EngineFailedError, EngineUnavailableError } from "../engines/engine.ts";
import { EngineBusyError } from "../engines/engine_queue.ts";
import type { ContractIssueParams, ErrorResponse } from "../schemas/translation.ts";
import { LANGUAGE_CODES } from "../schemas/languages.ts";

/** Status and type of every contract code (translation-service.md §7, DECISIONS.md). */
export const ERROR_CODES = {
  invalid_request: { status: 400, type: "invalid_request_error" },
  unauthorized: { status: 401, type: "authentication_error" },
  ws_unauthorized: { status: 401, type: "authentication_error" },
  permission_required: { status: 403, type: "server_error" },
  host_not_allowed: { status: 403, type: "invalid_request_error" },
  not_found: { status: 404, type: "invalid_request_error" },
  payload_too_large: { status: 413, type: "invalid_request_error" },
  batch_too_large: { status: 413, type: "invalid_request_error" },
  unsupported_language: { status: 422, type: "invalid_request_error" },
  internal_error: { status: 500, type: "server_error" },
  engine_unavailable: { status: 503, type: "server_error" },
} as const;

/** A contract error code. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Options of {@link TranslationServiceError}. */
export type ServiceErrorOptions = ContractErrorOptions;

/** An error of `tolk serve` carrying its contract code. */
export class TranslationServiceError extends ContractError<ErrorCode> {
  override name = "TranslationServiceError";

  constructor(code: ErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(code, ERROR_CODES[code], message, options);
  }
}

/**
 * Makes a contract error.
 *
 * @example
 * ```ts
 * throw serviceError("invalid_request", "texts must not be empty", { param: "texts" });
 * ```
 */
export function serviceError(
  code: ErrorCode,
  message: string,
  options?: ServiceErrorOptions,
): TranslationServiceError {
  return new TranslationServiceError(code, message, options);
}

/** The ErrorResponse body of an error. */
export function errorBody(error: TranslationServiceError): ErrorResponse {
  return {
    error: {
      code: error.code,
      message: error.message,
      type: error.type as never,
      param: error.param,
    },
  };
}

/** Maps a zod validation failure of a request to its contract error (first issue wins). */
export function errorFromIssues(issues: readonly z.core.$ZodIssue[]): TranslationServiceError {
  const issue = issues[0];
  const path = issue.path.map(String);
  const field = fieldPath(issue.path);
  if (issue.code === "unrecognized_keys") {
    const param = [...path, issue.keys[0]].join(".");
    return serviceError("invalid_request", `unknown field "${param}"`, { param });
  }
  if (issue.code === "custom" && (issue.params as ContractIssueParams | undefined)?.code) {
    const params = issue.params as ContractIssueParams;
    return serviceError(params.code, issue.message, { param: params.param });
  }
  if (issue.code === "too_big" && issue.origin === "array" && field === "texts") {
    return serviceError("batch_too_large", issue.message, { param: "texts" });
  }
  if (issue.code === "invalid_value" && (field === "source" || field === "target")) {
    const allowed = field === "source" ? ["auto", ...LANGUAGE_CODES] : LANGUAGE_CODES;
    return serviceError(
      "unsupported_language",
      `${field} is not a supported language; supported: ${allowed.join(", ")}`,
      { param: field },
    );
  }
  const where = field ?? "request body";
  if (issue.code === "invalid_type" && issue.input === undefined && field) {
    return serviceError("invalid_request", `${field} is required`, { param: field });
  }
  return serviceError("invalid_request", `${where}: ${issue.message}`, { param: field });
}

/**
 * Turns anything thrown while serving into a contract error.
 *
 * Engine errors keep their message (it names the engine and why, never user text); an unknown
 * error is logged by the caller and becomes `internal_error` with a fixed message.
 */
export function toTranslationServiceError(error: unknown): TranslationServiceError {
  if (error instanceof TranslationServiceError) return error;
  if (error instanceof EngineBusyError) {
    return serviceError("engine_unavailable", error.message, {
      retryAfter: error.retryAfterSeconds,
    });
  }
  if (error instanceof EngineUnavailableError) {
    return serviceError("engine_unavailable", error.message);
  }
  if (error instanceof EngineFailedError) return serviceError("internal_error", error.message);
  const status = httpStatusOf(error);
  if (status === 413) {
    return serviceError("payload_too_large", "request body is too large", { param: "texts" });
  }
  if (status === 400) return serviceError("invalid_request", "malformed JSON in request body");
  return serviceError("internal_error", "internal error");
}

/** The status of a Hono HTTPException (or any error with a numeric `status`), if any. */
function httpStatusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

/** Dotted path of the offending field, up to the first array index; null for the body itself. */
function fieldPath(path: readonly PropertyKey[]): string | null {
  const names: string[] = [];
  for (const segment of path) {
    if (typeof segment !== "string") break;
    names.push(segment);
  }
  return names.length ? names.join(".") : null;
}

/** The error builders the JSON body validator of this service uses. */
export const JSON_BODY_ERRORS = {
  invalid: errorFromIssues,
  notJson: () =>
    serviceError("invalid_request", "the body must be JSON with Content-Type: application/json"),
};
