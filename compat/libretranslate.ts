/**
 * The LibreTranslate adapter: a LibreTranslate request becomes a tolk TranslateRequest, tolk's
 * answer becomes LibreTranslate's (confidence in percent, `detectedLanguage` only for `auto`,
 * arrays for an array `q`), tolk's errors become `{error}`. Pure: no Hono.
 */
import type { ContractError } from "../errors/contract_error.ts";
import { type ErrorCode, serviceError } from "../errors/translation_errors.ts";
import { isLanguageCode, LANGUAGE_CODES } from "../schemas/languages.ts";
import {
  LIBRE_BUSY_STATUS,
  LIBRE_ERROR_STATUSES,
  type LibreDetection,
  LibreDetectRequestSchema,
  type LibreFrontendSettingsSchema,
  type LibreLanguagesResponseSchema,
  LibreTranslateRequestSchema,
  type LibreTranslateResponse,
} from "../schemas/compat/libretranslate.ts";
import {
  countCodePoints,
  LIMITS,
  type TranslateRequest,
  type TranslateResponse,
} from "../schemas/translation.ts";
import type { z } from "zod";
import {
  checkedDetectTexts,
  checkedRequest,
  type CompatPolicy,
  isRetryLater,
  oneTextField,
  readFields,
  readLanguage,
} from "./compat_request.ts";
import { LANGUAGE_NAMES, toClientLanguage } from "./language_spellings.ts";

/** The history `client` of requests that came through the LibreTranslate routes. */
export const LIBRE_CLIENT = "libretranslate";

/** How LibreTranslate clients are told that the token is missing or wrong (`RefusalWords`). */
export const LIBRE_REFUSAL = {
  missing: "an API key is required: send the tolk token as api_key",
  wrong: "Invalid API key",
  missingIsInvalid: true,
};

/**
 * LibreTranslate's refusals where a server has file translation or suggestions disabled: tolk
 * serves neither (DECISIONS.md lists the LibreTranslate routes; /frontend/settings says
 * `filesTranslation: false`, `suggestions: false`), and a LibreTranslate client reads these
 * 403s as "not on this server", where a 404 reads as a wrong base URL. `permission_required` is
 * tolk's one 403 code of that meaning (the server does not permit it); the client sees only
 * `{error}`.
 */
export const LIBRE_DISABLED = {
  files: () =>
    serviceError("permission_required", "Files translation are disabled on this server."),
  suggestions: () =>
    serviceError("permission_required", "Suggestions are disabled on this server."),
};

/** Most alternatives tolk returns per text. */
const MAX_ALTERNATIVES = 3;

/** A LibreTranslate call read: the tolk request and how to shape the answer. */
export interface LibreCall {
  request: TranslateRequest;
  /** `q` was an array: every answer field is an array too. */
  batch: boolean;
  /** Alternatives asked per text (0..3). */
  alternatives: number;
}

/** A detection as the detector gives it (confidence 0..1). */
export interface Detection {
  language: string;
  confidence: number;
}

/**
 * POST /translate fields → a LibreCall. Plain text keeps its line breaks (subtitle and note
 * clients send multi-line texts).
 *
 * @throws {TranslationServiceError} LibreTranslate's checks: missing `q`/`source`/`target`, an
 * unknown language or format, alternatives over 3, tolk's limits.
 */
export function fromLibreRequest(body: unknown, policy: CompatPolicy): LibreCall {
  // Absent or empty, LibreTranslate says the same words.
  for (const name of ["q", "source", "target"]) {
    if ((body as Record<string, unknown> | null)?.[name] === undefined) throw missing(name);
  }
  const fields = readFields(LibreTranslateRequestSchema, body);
  const batch = Array.isArray(fields.q);
  const texts = batch ? fields.q as string[] : [fields.q as string];
  if (texts.length === 0 || (!batch && texts[0] === "")) throw missing("q");
  if (fields.source === "") throw missing("source");
  if (fields.target === "") throw missing("target");
  const source = fields.source.toLowerCase() === "auto"
    ? "auto"
    : readLanguage(fields.source, "source", "libre");
  const target = readLanguage(fields.target, "target", "libre");
  const format = fields.format || "text";
  if (format !== "text" && format !== "html") {
    throw serviceError("invalid_request", `${format} format is not supported`, {
      param: "format",
    });
  }
  const alternatives = fields.alternatives ?? 0;
  if (alternatives > MAX_ALTERNATIVES) {
    throw serviceError(
      "invalid_request",
      `Invalid request: alternatives parameter must be <= ${MAX_ALTERNATIVES}`,
      { param: "alternatives" },
    );
  }
  const request = checkedRequest(
    {
      source,
      target,
      texts,
      ...(format === "html" ? { format } : {}),
      options: {
        ...(format === "text" ? { preserve_formatting: true } : {}),
        ...(alternatives > 0 ? { return_alternatives: true } : {}),
      },
    },
    policy,
    batch ? { texts: "q" } : oneTextField("q"),
  );
  return { request, batch, alternatives };
}

/**
 * tolk's answer → LibreTranslate's. `detections` (one per text, from the detector) feed
 * `detectedLanguage` when the source was auto.
 */
export function toLibreResponse(
  result: TranslateResponse,
  call: LibreCall,
  detections: readonly Detection[],
): LibreTranslateResponse {
  const texts = result.results.map((item) => item.text);
  const body: LibreTranslateResponse = { translatedText: call.batch ? texts : texts[0] };
  if (call.request.source === "auto") {
    const detected = detections.map(toLibreDetection);
    body.detectedLanguage = call.batch ? detected : detected[0];
  }
  if (call.alternatives > 0) {
    const alternatives = result.results.map((item) =>
      item.alternatives.slice(0, call.alternatives)
    );
    body.alternatives = call.batch ? alternatives : alternatives[0];
  }
  return body;
}

/**
 * POST /detect fields → the texts to detect: a string is one text, an array several (pooled by
 * {@link toLibreDetections}), held to the limits of POST /v1/detect.
 *
 * @throws {TranslationServiceError} `invalid_request` when `q` is missing or empty, and the
 * limit errors of /v1/detect naming `q`.
 */
export function fromLibreDetectRequest(body: unknown): string[] {
  if ((body as Record<string, unknown> | null)?.q === undefined) throw missing("q");
  const fields = readFields(LibreDetectRequestSchema, body);
  const texts = Array.isArray(fields.q) ? fields.q : [fields.q];
  // LibreTranslate refuses a falsy q: "" or [] (an array of empty strings is detected).
  if (texts.length === 0 || fields.q === "") throw missing("q");
  return checkedDetectTexts(texts, "q");
}

/**
 * The detections of `texts` (one each, in order) → LibreTranslate's one list for them all, as
 * its `detect_languages` pools a batch: each language once, its confidence the mean over the
 * texts detected as it, best first by that confidence times those texts' length; languages it
 * does not list are left out, as LibreTranslate leaves them out. One text is a batch of one: its
 * detection alone.
 */
export function toLibreDetections(
  texts: readonly string[],
  detections: readonly Detection[],
): LibreDetection[] {
  const pooled = new Map<string, { confidences: number[]; length: number }>();
  detections.forEach((detection, index) => {
    if (!isLanguageCode(detection.language)) return;
    const entry = pooled.get(detection.language) ?? { confidences: [], length: 0 };
    entry.confidences.push(detection.confidence);
    entry.length += countCodePoints(texts[index]);
    pooled.set(detection.language, entry);
  });
  const ranked = [...pooled].map(([language, { confidences, length }]) => {
    const confidence = confidences.reduce((sum, value) => sum + value, 0) / confidences.length;
    return { language, confidence, weight: confidence * length };
  });
  // A stable sort: languages of equal weight keep the order of their first text.
  ranked.sort((a, b) => b.weight - a.weight);
  return ranked.length > 0 ? ranked.map(toLibreDetection) : [NO_LANGUAGE];
}

/**
 * LibreTranslate's answer when no language it lists was found: English at confidence 0. Its
 * clients look a detected code up in `/languages`; `und`, or a language tolk detects but does not
 * translate (Italian), is in no list of theirs.
 */
const NO_LANGUAGE: LibreDetection = { language: "en", confidence: 0 };

/**
 * A detection → LibreTranslate's (its spelling, confidence in percent, one decimal), or
 * {@link NO_LANGUAGE} for a language `/languages` does not list.
 */
export function toLibreDetection(detection: Detection): LibreDetection {
  if (!isLanguageCode(detection.language)) return NO_LANGUAGE;
  return {
    language: toClientLanguage(detection.language, "libre"),
    confidence: Math.round(Math.min(1, Math.max(0, detection.confidence)) * 1000) / 10,
  };
}

/** GET /languages: every language translates into every other. */
export function toLibreLanguages(): z.infer<typeof LibreLanguagesResponseSchema> {
  const codes = LANGUAGE_CODES.map((code) => toClientLanguage(code, "libre"));
  return LANGUAGE_CODES.map((code, index) => ({
    code: codes[index],
    name: LANGUAGE_NAMES[code],
    targets: codes.filter((_, other) => other !== index),
  }));
}

/** GET /frontend/settings: what a LibreTranslate web front end asks before it starts. */
export function toLibreFrontendSettings(): z.infer<typeof LibreFrontendSettingsSchema> {
  return {
    charLimit: LIMITS.max_chars_per_item,
    frontendTimeout: 500,
    apiKeys: true,
    keyRequired: true,
    suggestions: false,
    filesTranslation: false,
    supportedFilesFormat: [],
    language: {
      source: { code: "auto", name: "Auto Detect" },
      target: { code: "en", name: LANGUAGE_NAMES.en },
    },
  };
}

/**
 * A tolk error → LibreTranslate's status and `{error}`: a wrong key is 403, limits and unknown
 * languages are 400 as LibreTranslate answers them, and a refusal that says when to retry (a full
 * engine queue) is its rate limit's "Slowdown: …" ({@link LIBRE_BUSY_STATUS}), the status its
 * clients retry or back off on. The Retry-After header stays.
 */
export function toLibreError(
  error: ContractError<ErrorCode>,
): { status: number; body: { error: string } } {
  if (isRetryLater(error)) {
    return { status: LIBRE_BUSY_STATUS, body: { error: `Slowdown: ${error.message}` } };
  }
  const status = LIBRE_ERROR_STATUSES[error.status] ?? error.status;
  return { status, body: { error: error.message } };
}

function missing(name: string) {
  return serviceError("invalid_request", `Invalid request: missing ${name} parameter`, {
    param: name,
  });
}
