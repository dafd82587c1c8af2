/**
 * The error factory of `tolk serve`: its code table and the map of engine errors to codes. The
 * rendering, the zod mapping and the field-path style are shared (`contract_error.ts`).
 *
 * Routes and middleware throw {@link TranslationServiceError}; `app.onError` and the WebSocket
 * frame loop both render with {@link renderTranslationError}.
 */
import type { z } from "zod";
import {
  type CodeEntry,
  type ContractError,
  createErrorRenderer,
  serviceErrorClass,
} from "./contract_error.ts";
import { EngineFailedError, EngineUnavailableError } from "../engines/engine.ts";
import { EngineBusyError } from "../engines/engine_queue.ts";
import type {
  ContractIssueParams,
  ErrorResponse,
  TranslationErrorCode,
} from "../schemas/translation.ts";
import { LANGUAGE_CODES } from "../schemas/languages.ts";
import { StorageError } from "../storage/database.ts";
import { logUnexpected } from "./log_unexpected.ts";

/** Status and type of every contract code (translation-service.md §7, DECISIONS.md). */
export const ERROR_CODES: Record<TranslationErrorCode, CodeEntry> = {
  invalid_request: { status: 400, type: "invalid_request_error" },
  unauthorized: { status: 401, type: "authentication_error" },
  ws_unauthorized: { status: 401, type: "authentication_error" },
  permission_required: { status: 403, type: "server_error" },
  host_not_allowed: { status: 403, type: "invalid_request_error" },
  origin_not_allowed: { status: 403, type: "invalid_request_error" },
  not_found: { status: 404, type: "invalid_request_error" },
  payload_too_large: { status: 413, type: "invalid_request_error" },
  batch_too_large: { status: 413, type: "invalid_request_error" },
  unsupported_language: { status: 422, type: "invalid_request_error" },
  internal_error: { status: 500, type: "server_error" },
  engine_unavailable: { status: 503, type: "server_error" },
  storage_unavailable: { status: 503, type: "server_error" },
};

/** A contract error code. */
export type ErrorCode = TranslationErrorCode;

/** An error of `tolk serve` carrying its contract code. */
export class TranslationServiceError
  extends serviceErrorClass("TranslationServiceError", ERROR_CODES) {}

/**
 * Engine and storage errors are routine (a backend is down, a queue is full, a model answered badly): they
 * keep their message, which names the engine and why and never quotes user text.
 */
function fromEngineError(thrown: unknown): ContractError<ErrorCode> | undefined {
  if (thrown instanceof EngineBusyError) {
    return serviceError("engine_unavailable", thrown.message, {
      retryAfter: thrown.retryAfterSeconds,
    });
  }
  if (thrown instanceof EngineUnavailableError) {
    return serviceError("engine_unavailable", thrown.message);
  }
  if (thrown instanceof EngineFailedError) return serviceError("internal_error", thrown.message);
  // The message names the database file and SQLite's reason, never request contents.
  if (thrown instanceof StorageError) return serviceError("storage_unavailable", thrown.message);
  return undefined;
}

/** What {@link logRendered} logs about: a request's error and how it was rendered. */
export interface RenderedEntry {
  requestId: string;
  thrown: unknown;
  /** From the rendering: nobody expected it, so the client got `internal_error`. */
  unexpected: boolean;
}

/**
 * Logs what the operator must see of an error a client was answered with: an unexpected one's
 * name and frames (never its message), and for a routine refusal whose cause the client reads
 * in short (a 503 is routine for the contract, not for whoever runs the service) the rest: the
 * database's failure, or an engine's unreachable server in the system's own words ("tcp connect
 * error: Connection refused (os error 111)" where the client reads "connection refused").
 */
export function logRendered(log: (line: string) => void, entry: RenderedEntry): void {
  const { requestId, thrown } = entry;
  if (entry.unexpected) logUnexpected(log, requestId, thrown);
  if (thrown instanceof StorageError) log(`${requestId} storage failed: ${thrown.message}`);
  if (thrown instanceof EngineUnavailableError && thrown.detail !== undefined) {
    log(`${requestId} ${thrown.message} [${thrown.detail}]`);
  }
}

/** The service's own reading of a zod issue: limits, languages and custom contract codes. */
function fromIssue(issue: z.core.$ZodIssue, param: string | null) {
  if (issue.code === "custom" && (issue.params as ContractIssueParams | undefined)?.code) {
    const params = issue.params as ContractIssueParams;
    // One item of a list (`texts[3]`): the message names which.
    const which = param !== null && param !== params.param ? `${param}: ` : "";
    return serviceError(params.code, which + issue.message, { param: params.param });
  }
  if (issue.code === "too_big" && issue.origin === "array" && param === "texts") {
    return serviceError("batch_too_large", issue.message, { param: "texts" });
  }
  // source/target of a translation, and the language fields of glossaries and memory.
  if (issue.code === "invalid_value" && param && LANGUAGE_FIELD.test(param)) {
    const allowed = param === "source" ? ["auto", ...LANGUAGE_CODES] : LANGUAGE_CODES;
    return serviceError(
      "unsupported_language",
      `${param} is not a supported language; supported: ${allowed.join(", ")}`,
      { param },
    );
  }
  return undefined;
}

const LANGUAGE_FIELD = /^(source|target)$|(^|\.)(source|target)_lang$/;

const renderer = createErrorRenderer<ErrorCode>({
  errorClass: TranslationServiceError,
  fromDomain: fromEngineError,
  tooLarge: { code: "payload_too_large", message: "request body is too large", param: "texts" },
  fromIssue,
  invalidCode: "invalid_request",
  internalCode: "internal_error",
});

/**
 * Makes a contract error: the one error factory of `tolk serve`.
 *
 * @example
 * ```ts
 * throw serviceError("invalid_request", "texts must not be empty", { param: "texts" });
 * ```
 */
export const serviceError = renderer.make;

/** Renders anything thrown while serving an HTTP request or a WebSocket frame. */
export const renderTranslationError = renderer.render;

/** The ErrorResponse body of a contract error. */
export const errorBody = renderer.body as (error: ContractError<ErrorCode>) => ErrorResponse;

/** Maps a zod validation failure of a request to its contract error (first issue wins). */
export const errorFromIssues = renderer.errorFromIssues;

/**
 * A request body as its schema reads it.
 *
 * @throws {TranslationServiceError} of the first issue when it does not fit.
 */
export const validateRequest = renderer.validate;

/** The error builders the JSON body validator of this service uses. */
export const JSON_BODY_ERRORS = renderer.jsonBodyErrors;
