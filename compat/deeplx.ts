/**
 * The DeepLX adapter: `{text, source_lang, target_lang, tag_handling}` becomes a tolk
 * TranslateRequest, tolk's answer becomes `{code: 200, data, …}`, errors become
 * `{code, message}`. Pure: no Hono.
 */
import type { ContractError } from "../errors/contract_error.ts";
import { type ErrorCode, serviceError } from "../errors/translation_errors.ts";
import {
  DEEPLX_BUSY_STATUS,
  DEEPLX_ERROR_STATUSES,
  type DeepLXRequest,
  DeepLXRequestSchema,
  type DeepLXResponse,
} from "../schemas/compat/deeplx.ts";
import type { TranslateRequest, TranslateResponse } from "../schemas/translation.ts";
import {
  checkedRequest,
  type CompatPolicy,
  isRetryLater,
  oneTextField,
  readFields,
  readLanguage,
} from "./compat_request.ts";
import { deepLSourceCode, readDeepLSource, readTagHandling } from "./deepl.ts";

/** The history `client` of requests that came through the DeepLX routes. */
export const DEEPLX_CLIENT = "deeplx";

/** How DeepLX clients are told that the token is missing or wrong (`RefusalWords`). */
export const DEEPLX_REFUSAL = { missing: "Invalid access token", wrong: "Invalid access token" };

/** A DeepLX call read: the client's fields (the answer echoes them) and the tolk request. */
export interface DeepLXCall {
  fields: DeepLXRequest;
  request: TranslateRequest;
}

/**
 * DeepLX fields → a DeepLXCall. An empty or `auto` source means detect; line breaks are kept.
 *
 * @throws {TranslationServiceError} for an empty text, an unknown language or tag handling.
 */
export function fromDeepLXRequest(body: unknown, policy: CompatPolicy): DeepLXCall {
  const fields = readFields(DeepLXRequestSchema, body);
  if (fields.text === "") {
    throw serviceError("invalid_request", "No text to translate", { param: "text" });
  }
  const sourceLang = fields.source_lang ?? "";
  const target = readLanguage(fields.target_lang, "target_lang", "deepl");
  const source = sourceLang === "" || sourceLang.toLowerCase() === "auto"
    ? "auto"
    : readDeepLSource(sourceLang, target, [fields.text]);
  const format = readTagHandling(fields.tag_handling);
  const request = checkedRequest(
    {
      source,
      target,
      texts: [fields.text],
      ...(format ? { format } : { options: { preserve_formatting: true } }),
    },
    policy,
    oneTextField("text"),
  );
  return { fields, request };
}

/** tolk's answer → DeepLX's; `id` is the answer's time in epoch milliseconds. */
export function toDeepLXResponse(result: TranslateResponse, call: DeepLXCall): DeepLXResponse {
  const [item] = result.results;
  const source = call.request.source !== "auto" ? call.request.source! : item.detected_source;
  return {
    code: 200,
    id: result.created * 1000,
    data: item.text,
    alternatives: item.alternatives,
    source_lang: deepLSourceCode(source, call.request.target),
    target_lang: call.fields.target_lang.toUpperCase(),
    method: "tolk",
  };
}

/**
 * A tolk error → DeepLX's status and `{code, message}`: a bad token is 401, as DeepLX says, and a
 * refusal that says when to retry (a full engine queue) is {@link DEEPLX_BUSY_STATUS}, as DeepLX
 * answers when DeepL throttles it; an engine that is down stays 503, DeepLX's failure.
 */
export function toDeepLXError(
  error: ContractError<ErrorCode>,
): { status: number; body: { code: number; message: string } } {
  const status = isRetryLater(error)
    ? DEEPLX_BUSY_STATUS
    : DEEPLX_ERROR_STATUSES[error.status] ?? error.status;
  return { status, body: { code: status, message: error.message } };
}
