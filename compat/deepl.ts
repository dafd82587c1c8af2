/**
 * The DeepL adapter (the shape of Ollama's openai package): a DeepL request becomes a tolk
 * TranslateRequest, tolk's answer becomes DeepL's, tolk's errors become DeepL's. Pure: no Hono.
 */
import type { ContractError } from "../errors/contract_error.ts";
import { type ErrorCode, serviceError } from "../errors/translation_errors.ts";
import {
  DEEPL_BUSY_STATUS,
  DEEPL_ERROR_STATUSES,
  type DeepLError,
  type DeepLLanguage,
  type DeepLTranslateRequest,
  DeepLTranslateRequestSchema,
  type DeepLTranslateResponse,
} from "../schemas/compat/deepl.ts";
import {
  countCodePoints,
  TAG_OPTION_FORMATS,
  type TranslateRequest,
  type TranslateResponse,
  type TranslationFormat,
} from "../schemas/translation.ts";
import {
  checkedRequest,
  type ClientFields,
  type CompatPolicy,
  isRetryLater,
  readFields,
  readLanguage,
} from "./compat_request.ts";
import { classifyHan } from "../detection/han_variants.ts";
import type { LanguageCode } from "../schemas/languages.ts";
import { type DeepLFormality, readFormality } from "./deepl_formality.ts";
import { xmlProblem } from "./xml_well_formed.ts";
import {
  clientSourceLanguages,
  clientTargetLanguages,
  toClientLanguage,
} from "./language_spellings.ts";

/** The history `client` of requests that came through the DeepL routes. */
export const DEEPL_CLIENT = "deepl";

/** How DeepL clients are told that the token is missing or wrong (`RefusalWords`). */
export const DEEPL_REFUSAL = {
  // Older DeepL clients send `auth_key` in the body or query, which DeepL stopped reading in 2025;
  // "send it as the auth key" would read as "send it as auth_key", which they did.
  missing: "missing API key: send the tolk token in the header " +
    "'Authorization: DeepL-Auth-Key <token>' (auth_key in the body or query is not read, " +
    "as DeepL no longer reads it)",
  wrong: "wrong API key: send the tolk token as the DeepL auth key",
};

/** DeepL shows a quota; tolk has none, so the limit is one no client reaches. */
export const DEEPL_CHARACTER_LIMIT = 1_000_000_000_000;

const SPLIT_SENTENCES = ["0", "1", "nonewlines"] as const;

/**
 * One of `choices` for a DeepL parameter, in any case (`XML`, `NONEWLINES`: clients with their
 * own enums send them so, and DeepL's SDKs lower-case what they pass), or undefined when it is
 * absent or empty.
 *
 * @throws {TranslationServiceError} `invalid_request` naming the parameter for any other value.
 */
function readChoice<T extends string>(
  value: string | undefined,
  name: string,
  choices: readonly T[],
): T | undefined {
  if (value === undefined || value === "") return undefined;
  const choice = choices.find((choice) => choice === value.toLowerCase());
  if (choice !== undefined) return choice;
  throw serviceError(
    "invalid_request",
    `Value for '${name}' not supported: "${value}" (${choices.join(" or ")})`,
    { param: name },
  );
}

/**
 * Reads DeepL's `tag_handling` (also DeepLX's): `html` and `xml` are tolk's formats of those
 * names, which keep every tag byte for byte (`xml` reads the tags as XML: all inline, `<x/>`
 * empty, as CAT tools send them).
 *
 * @throws {TranslationServiceError} `invalid_request` for any other value.
 */
export function readTagHandling(value: string | undefined): "html" | "xml" | undefined {
  return readChoice(value, "tag_handling", ["html", "xml"] as const);
}

/** DeepL's versions of its tag handling. */
type TagHandlingVersion = "v1" | "v2";

/**
 * Reads DeepL's `tag_handling_version`. tolk has one way of handling tags; `v2` adds what a
 * client choosing it relies on: XML that is not well-formed is refused (`checkStrictXml`).
 *
 * @throws {TranslationServiceError} `invalid_request` for a value other than v1 and v2.
 */
function readTagHandlingVersion(value: string | undefined): TagHandlingVersion | undefined {
  return readChoice(value, "tag_handling_version", ["v1", "v2"] as const);
}

/**
 * Tag handling v2 parses XML strictly: DeepL's own words, then which text and where.
 *
 * @throws {TranslationServiceError} `invalid_request` naming `text` for the first text that is
 * not well-formed.
 */
function checkStrictXml(texts: readonly string[]): void {
  texts.forEach((text, index) => {
    const problem = xmlProblem(text);
    if (problem === undefined) return;
    throw serviceError(
      "invalid_request",
      `Tag handling parsing failed, please check input: text ${index}: ${problem}.`,
      { param: "text" },
    );
  });
}

/**
 * Reads a DeepL `source_lang`. DeepL's one Chinese source, `ZH`, names no script (tolk reads a
 * bare `zh` as Simplified); toward a Chinese target the script decides whether the text changes
 * at all, so there it is read from the texts: Traditional when they are written so.
 *
 * @throws {TranslationServiceError} `unsupported_language` for a language tolk does not translate.
 */
export function readDeepLSource(
  value: string,
  target: LanguageCode,
  texts: readonly string[],
): LanguageCode {
  const source = readLanguage(value, "source_lang", "deepl");
  const scriptless = value.trim().toLowerCase() === "zh";
  if (!scriptless || !target.startsWith("zh-")) return source;
  return classifyHan(texts.join("\n")).language === "zh-Hant" ? "zh-Hant" : "zh-Hans";
}

/** DeepL's `model_type` values. */
const MODEL_TYPES = ["quality_optimized", "prefer_quality_optimized", "latency_optimized"] as const;

/** The model types DeepL answers in `model_type_used`. */
type ModelTypeUsed = "quality_optimized" | "latency_optimized";

/**
 * DeepL's `model_type` as the `model_type_used` DeepL answers for it: tolk has one way to
 * translate, so the type asked for is the type used (DeepL's legacy `prefer_quality_optimized`
 * is `quality_optimized`, as DeepL documents it). Another value is ignored, as before DeepL had
 * the parameter (it decides nothing here), and answered with no model type.
 */
function modelTypeUsed(value: string | undefined): ModelTypeUsed | undefined {
  const type = MODEL_TYPES.find((type) => type === value?.toLowerCase());
  return type === "prefer_quality_optimized" ? "quality_optimized" : type;
}

/** A DeepL translate request read: tolk's request, and what the answer must echo. */
export interface DeepLTranslateCall {
  request: TranslateRequest;
  tagHandlingVersion?: TagHandlingVersion;
  modelTypeUsed?: ModelTypeUsed;
  /** `show_billed_characters`: DeepL answers `billed_characters` only when asked. */
  showBilledCharacters?: true;
  /** What the route holds to the engine that would translate (checkFormality). */
  formality?: DeepLFormality;
}

/** tolk's request paths by the DeepL parameters they are read from (the tag options by name). */
const DEEPL_FIELDS: ClientFields = {
  texts: "text",
  "options.context": "context",
  "options.instructions": "custom_instructions",
  "options.glossary_id": "glossary_id",
  ...Object.fromEntries(Object.keys(TAG_OPTION_FORMATS).map((name) => [`options.${name}`, name])),
};

/** The tag options of a DeepL request that the format reads (TAG_OPTION_FORMATS). */
function tagOptionsFor(format: TranslationFormat, fields: DeepLTranslateRequest) {
  return Object.fromEntries(
    Object.entries(TAG_OPTION_FORMATS).flatMap(([option, formats]) => {
      const value = fields[option as keyof typeof TAG_OPTION_FORMATS];
      const read = value !== undefined && (formats as readonly string[]).includes(format);
      return read ? [[option, value]] : [];
    }),
  );
}

/**
 * The glossary of a request: `glossary_id`, or the one id of `glossary_ids` (deepl-node sends its
 * `glossaryIds` so; DeepL applies up to five, tolk one per request, and says so rather than
 * translating without the user's terms).
 *
 * @throws {TranslationServiceError} `invalid_request` for both fields, or several ids.
 */
function readGlossaryId(one: string | undefined, many: string[] | undefined): string | undefined {
  if (!many || many.length === 0) return one || undefined;
  if (one) {
    throw serviceError("invalid_request", "glossary_id and glossary_ids cannot be used together.", {
      param: "glossary_ids",
    });
  }
  if (many.length > 1) {
    throw serviceError(
      "invalid_request",
      `glossary_ids names ${many.length} glossaries; tolk applies one glossary per request.`,
      { param: "glossary_ids" },
    );
  }
  return many[0];
}

/**
 * DeepL's own resources a request can name and tolk has none of, with what to do instead: a
 * request naming one is refused, as translating without the user's rules would drop them unsaid.
 * (Exported: the routes that list them say the same.)
 */
export const ABSENT_DEEPL_RESOURCES = {
  style_id: {
    what: "style rule",
    instead: "tolk has no DeepL style rules (send the rule's instructions as custom_instructions)",
  },
  translation_memory_id: {
    what: "translation memory",
    instead: "tolk has no DeepL translation memories (its own translation memory is switched " +
      "on for these routes in its settings, for every request)",
  },
} as const;

/**
 * @throws {TranslationServiceError} `invalid_request` naming the first of DeepL's own resources
 * (ABSENT_DEEPL_RESOURCES) the request names.
 */
function refuseAbsentResources(fields: DeepLTranslateRequest): void {
  for (const [param, { what, instead }] of Object.entries(ABSENT_DEEPL_RESOURCES)) {
    const id = fields[param as keyof typeof ABSENT_DEEPL_RESOURCES];
    if (!id) continue;
    throw serviceError("invalid_request", `${param} "${id}" names no ${what}: ${instead}.`, {
      param,
    });
  }
}

/**
 * DeepL POST /v2/translate fields (form or JSON, already decoded) → TranslateRequest.
 *
 * `split_sentences=1` (DeepL's default for text) makes each line its own unit; `0` and
 * `nonewlines` send a text whole, as DeepL splits on no line break then (an engine finds the
 * sentences itself). DeepL's `preserve_formatting` decides nothing here: it only keeps DeepL from
 * correcting punctuation and case, which tolk's engines are never asked to. The tag options are read
 * as DeepL reads them: with `tag_handling` only (`ignore_tags` for html and xml, the sentence
 * splitting ones for xml), and left alone otherwise.
 *
 * @throws {TranslationServiceError} for a missing field, an unknown language or value, a glossary
 * without `source_lang` (DeepL's rule), a style rule or translation memory of DeepL's, a batch over tolk's limits, or XML that is not
 * well-formed under tag handling v2.
 */
export function fromDeepLRequest(body: unknown, policy: CompatPolicy): DeepLTranslateCall {
  const fields = readFields(DeepLTranslateRequestSchema, body);
  if (fields.text.length === 0) {
    throw serviceError("invalid_request", "Parameter 'text' not specified.", { param: "text" });
  }
  const target = readLanguage(fields.target_lang, "target_lang", "deepl");
  const source = fields.source_lang
    ? readDeepLSource(fields.source_lang, target, fields.text)
    : "auto";
  refuseAbsentResources(fields);
  const glossaryId = readGlossaryId(fields.glossary_id, fields.glossary_ids);
  if (glossaryId !== undefined && source === "auto") {
    throw serviceError(
      "invalid_request",
      "Use of a glossary requires the source_lang parameter to be specified.",
      { param: "source_lang" },
    );
  }
  const format = readTagHandling(fields.tag_handling);
  const tagHandlingVersion = readTagHandlingVersion(fields.tag_handling_version);
  const modelType = modelTypeUsed(fields.model_type);
  const formality = readFormality(fields.formality);
  const split = readChoice(fields.split_sentences, "split_sentences", SPLIT_SENTENCES) ??
    (format === "html" ? "nonewlines" : "1");
  const { tone } = formality;
  const request = checkedRequest(
    {
      source,
      target,
      texts: fields.text,
      ...(format ? { format } : {}),
      options: {
        ...(tone ? { tone } : {}),
        ...(fields.context ? { context: fields.context } : {}),
        ...(fields.custom_instructions ? { instructions: fields.custom_instructions } : {}),
        ...(glossaryId ? { glossary_id: glossaryId } : {}),
        ...(format ? tagOptionsFor(format, fields) : { preserve_formatting: split === "1" }),
      },
    },
    policy,
    DEEPL_FIELDS,
  );
  if (tagHandlingVersion === "v2" && format === "xml") checkStrictXml(request.texts);
  return {
    request,
    ...(tagHandlingVersion ? { tagHandlingVersion } : {}),
    ...(modelType ? { modelTypeUsed: modelType } : {}),
    ...(fields.show_billed_characters ? { showBilledCharacters: true } : {}),
    formality,
  };
}

/**
 * A source language as DeepL answers it: always one of its source codes (DeepL's OpenAPI
 * `SourceLanguage`, which typed clients decode into an enum), so text without letters (`und`)
 * reads as the target's language, which it is left in unchanged.
 */
export function deepLSourceCode(source: string, target: string): string {
  return toClientLanguage(source === "und" ? target : source, "deepl");
}

/**
 * tolk's answer → DeepL's. `detected_source_language` is the given source, else the item's
 * detected language (the request's when the item had none), in DeepL's spelling; a named
 * `tag_handling_version`, a `model_type`'s `model_type_used` and, when asked for,
 * `billed_characters` are in each translation, as DeepL answers them.
 */
export function toDeepLResponse(
  result: TranslateResponse,
  { request, tagHandlingVersion, modelTypeUsed, showBilledCharacters }: DeepLTranslateCall,
): DeepLTranslateResponse {
  const explicit = request.source && request.source !== "auto" ? request.source : undefined;
  // A letterless item reads as the language of the others: the response's source, which leaves
  // letterless items out.
  return {
    translations: result.results.map((item) => {
      const detected = item.detected_source === "und" ? result.source : item.detected_source;
      return {
        detected_source_language: deepLSourceCode(explicit ?? detected, request.target),
        text: item.text,
        ...(showBilledCharacters
          ? { billed_characters: countCodePoints(request.texts[item.index]) }
          : {}),
        ...(tagHandlingVersion ? { tag_handling_version: tagHandlingVersion } : {}),
        ...(modelTypeUsed ? { model_type_used: modelTypeUsed } : {}),
      };
    }),
  };
}

/**
 * GET /v2/languages: `type` source (default) or target; each target `supports_formality` when
 * `formality` says the engine would read it (DeepL clients hide their formality option when
 * false).
 *
 * @throws {TranslationServiceError} `invalid_request` for another type.
 */
export function toDeepLLanguages(type: string | undefined, formality: boolean): DeepLLanguage[] {
  const kind = readChoice(type, "type", ["source", "target"] as const);
  if (kind === undefined || kind === "source") {
    return clientSourceLanguages("deepl").map(({ code, name }) => ({ language: code, name }));
  }
  return clientTargetLanguages("deepl").map(({ code, name }) => ({
    language: code,
    name,
    supports_formality: formality,
  }));
}

/**
 * A tolk error → DeepL's status and body. A bad or missing key is 403, which deepl-node turns
 * into `AuthorizationError` (a 401 would surface as "unexpected status"); a refusal that says when
 * to retry (a full engine queue) is {@link DEEPL_BUSY_STATUS}, and an engine that is down stays 503.
 */
export function toDeepLError(
  error: ContractError<ErrorCode>,
): { status: number; body: DeepLError } {
  const status = isRetryLater(error)
    ? DEEPL_BUSY_STATUS
    : DEEPL_ERROR_STATUSES[error.status] ?? error.status;
  return { status, body: { message: error.message } };
}
