/**
 * What every compatibility adapter shares: reading a client's fields with its schema, reading a
 * language in any spelling, and holding the built TranslateRequest (or texts to detect) to tolk's
 * own contract (so limits are one rule in one place). Pure: no Hono, no I/O.
 */
import type { z } from "zod";
import type { ContractError } from "../errors/contract_error.ts";
import {
  type ErrorCode,
  errorFromIssues,
  serviceError,
  type TranslationServiceError,
} from "../errors/translation_errors.ts";
import type { LanguageCode } from "../schemas/languages.ts";
import {
  DetectRequestSchema,
  type TranslateRequest,
  TranslateRequestSchema,
} from "../schemas/translation.ts";
import {
  type ClientFamily,
  clientSourceLanguages,
  clientTargetLanguages,
  fromClientLanguage,
} from "./language_spellings.ts";

/**
 * What the settings decide for compatibility requests, whose shapes have no such fields
 * (DECISIONS.md: not sensitive unless the settings say so).
 */
export interface CompatPolicy {
  /** Keep compat requests out of history and memory writes. */
  sensitive: boolean;
  /** Read and write translation memory. */
  memory: boolean;
}

/** The policy when the settings say nothing. */
export const DEFAULT_COMPAT_POLICY: CompatPolicy = { sensitive: false, memory: false };

/** How a client family refuses a request without the token, in the words its users know. */
export interface RefusalWords {
  /** No token at all. */
  missing: string;
  /** A token that is not the one in force. */
  wrong: string;
  /** True where the family answers a missing key as a bad request (LibreTranslate: 400). */
  missingIsInvalid?: boolean;
}

/**
 * Reads a client's body, or a part of it found at `at` (`dictionaries[1]`), with its schema.
 *
 * @throws {TranslationServiceError} `invalid_request` naming the first bad field (under `at`).
 */
export function readFields<S extends z.ZodType>(schema: S, body: unknown, at = ""): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const prefix = at ? [at] : [];
  throw errorFromIssues(
    parsed.error.issues.map((issue) => ({ ...issue, path: [...prefix, ...issue.path] })),
  );
}

/**
 * Reads a language in any spelling clients send.
 *
 * @throws {TranslationServiceError} `unsupported_language` listing the family's own spellings.
 */
export function readLanguage(value: string, param: string, family: ClientFamily): LanguageCode {
  const code = fromClientLanguage(value);
  if (code) return code;
  const languages = param.startsWith("source") ? clientSourceLanguages : clientTargetLanguages;
  const supported = languages(family).map((entry) => entry.code).join(", ");
  throw serviceError(
    "unsupported_language",
    `${param} "${value}" is not supported; supported: ${supported}`,
    { param },
  );
}

/**
 * tolk's request paths that a client sends under names of its own (`texts`: DeepL's `text`,
 * Libre's `q`), so that an error names what the client sent; the first path that covers an
 * error's field is used.
 */
export type ClientFields = Readonly<Record<string, string>>;

/**
 * The fields of a client that sends its one text as a string (DeepLX's `text`, Libre's `q`
 * without an array): tolk's `texts[0]` is that field itself, which has no `[0]`.
 */
export function oneTextField(field: string): ClientFields {
  return { "texts[0]": field, texts: field };
}

/**
 * Holds a built request to the contract of POST /v1/translate (128 texts, 8000 and 50000 code
 * points) and applies the policy; an error names the field in the client's words (`fields`).
 *
 * @throws {TranslationServiceError} `batch_too_large`, `payload_too_large` or `invalid_request`.
 */
export function checkedRequest(
  request: TranslateRequest,
  policy: CompatPolicy,
  fields: ClientFields,
): TranslateRequest {
  const options = { ...request.options };
  if (policy.sensitive) options.sensitive = true;
  if (policy.memory) options.memory = true;
  const parsed = TranslateRequestSchema.safeParse({ ...request, options });
  if (parsed.success) return parsed.data;
  throw inClientWords(errorFromIssues(parsed.error.issues), fields);
}

/**
 * Holds texts to detect to the contract of POST /v1/detect (the same schema: 128 texts, 8000 and
 * 50000 code points).
 *
 * @throws {TranslationServiceError} `batch_too_large`, `payload_too_large` or `invalid_request`
 * naming `textsField`.
 */
export function checkedDetectTexts(texts: string[], textsField: string): string[] {
  const parsed = DetectRequestSchema.safeParse({ texts });
  if (parsed.success) return parsed.data.texts;
  throw inClientWords(errorFromIssues(parsed.error.issues), { texts: textsField });
}

/**
 * `error` with the field it names in the client's words: DeepL's `ignore_tags[1]`, not tolk's
 * `options.ignore_tags[1]`, which a DeepL client never sent.
 */
function inClientWords(error: TranslationServiceError, fields: ClientFields) {
  const param = error.param ?? "";
  const path = Object.keys(fields).find((path) =>
    param === path || param.startsWith(`${path}[`) || param.startsWith(`${path}.`)
  );
  if (path === undefined) return error;
  const named = (text: string) =>
    text.startsWith(path) ? fields[path] + text.slice(path.length) : text;
  return serviceError(error.code, named(error.message), { param: named(param) });
}

/**
 * Whether a refusal is "busy, retry later" rather than "down": an engine whose queue is full, or
 * a backend that said it is busy, carries the seconds to wait. A family whose clients retry on a
 * rate-limit status of their own answers these with it; an engine that is down (no wait given)
 * keeps its 503, which a client must not keep retrying.
 */
export function isRetryLater(error: ContractError<ErrorCode>): boolean {
  return error.code === "engine_unavailable" && error.retryAfter !== undefined;
}
