/**
 * The wire contract of `tolk serve` (translation-service.md §2), as zod schemas.
 *
 * Requests are strict: an unknown member anywhere is refused. Responses are schemas too, and the
 * tests parse every response body with them.
 */
import { z } from "zod";
import { FeaturesSchema } from "./features.ts";
import { EngineIdSchema, LANGUAGE_CODES, LanguageCodeSchema } from "./languages.ts";
import { MAX_NESTING, overNestedLine } from "../translation/formats/markdown_nesting.ts";
import { utf16Misread } from "../translation/utf16_misread.ts";
import { itemLimitMessage } from "./item_limit_message.ts";

/** The contract's version date, sent as `Svc-API-Version` on every successful JSON response. */
export const API_VERSION_DATE = "2026-11-20";

/** Limits of one request (translation-service.md §8); capabilities report these values. */
export const LIMITS = { max_items: 128, max_chars_per_item: 8000, max_total_chars: 50000 } as const;

/** Most alternatives a result carries (`options.return_alternatives`). */
export const MAX_ALTERNATIVES = 3;

/** A high surrogate: the only code unit that can start a pair counted as one code point. */
const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

/** Counts Unicode code points, the unit of every limit and of `usage`. */
export function countCodePoints(text: string): number {
  // Every request counts its texts for `usage` and its results once (the limits count only
  // texts longer than a limit in code units, see withinCodePoints). Most texts have no
  // surrogate, and the regular expression's scan for one is ten times faster than the loop
  // (0.006 against 0.07 ms for the 42 corpus documents).
  if (!HIGH_SURROGATE.test(text)) return text.length;
  // The code units less one per surrogate pair (a lone surrogate counts as one, as `for…of`
  // counts it): a plain loop over char codes, three times faster than iterating the string.
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdbff) continue;
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) {
      count--;
      i++;
    }
  }
  return count;
}

/**
 * Whether `texts` hold at most `limit` code points. A text has no more code points than code
 * units, so texts within the limit in code units pass without being counted: the limits are
 * checked on every request, and only texts near one pay for the count.
 */
function withinCodePoints(texts: readonly string[], limit: number): boolean {
  if (texts.reduce((sum, text) => sum + text.length, 0) <= limit) return true;
  return texts.reduce((sum, text) => sum + countCodePoints(text), 0) <= limit;
}

/** Contract `code` carried by a custom issue, read by the error mapping. */
export interface ContractIssueParams {
  code: "payload_too_large";
  param: string;
}

function tooLarge(param: string): { params: ContractIssueParams } {
  return { params: { code: "payload_too_large", param } };
}

/** TextBatch: 1..128 strings, each ≤ 8000 code points, ≤ 50000 in total. */
/**
 * A UTF-16 file read a byte a character is garbage to every reader: refused, neither translated
 * nor detected (a detector names some language for it).
 */
function refuseMisreadUtf16(text: string, context: z.RefinementCtx): void {
  const encoding = utf16Misread(text);
  if (encoding === undefined) return;
  context.addIssue({
    code: "custom",
    input: text,
    message: `every other character is U+0000: this looks like a ${encoding} file read as ` +
      `UTF-8 or Latin-1; decode the file as ${encoding} and send its text`,
  });
}

export const TextBatchSchema = z.array(
  z.string().refine(
    (text) => withinCodePoints([text], LIMITS.max_chars_per_item),
    {
      error: (issue) =>
        itemLimitMessage(String(issue.input), {
          item: LIMITS.max_chars_per_item,
          total: LIMITS.max_total_chars,
        }),
      ...tooLarge("texts"),
    },
  ).superRefine(refuseMisreadUtf16),
)
  .min(1, "texts must hold at least one item")
  .max(LIMITS.max_items, `texts holds more than ${LIMITS.max_items} items`)
  .refine(
    (texts) => withinCodePoints(texts, LIMITS.max_total_chars),
    { message: `texts total over ${LIMITS.max_total_chars} characters`, ...tooLarge("texts") },
  )
  .describe(
    "Texts to process: 1 to 128 items, each at most 8000 characters (Unicode code points), at most 50000 in total.",
  );

// A string first, then the enum: a non-string is a 400, a string outside the set is a 422.
const requestLanguage = z.string().pipe(LanguageCodeSchema);
const requestSourceLanguage = z.string().pipe(z.enum(["auto", ...LANGUAGE_CODES]));

/** Modes of a translation request. */
export const TRANSLATION_MODES = [
  "selection",
  "paragraph",
  "webpage",
  "subtitle",
  "message",
  "document",
] as const;

/** Formats of a translation request. */
export const TRANSLATION_FORMATS = ["text", "html", "markdown", "xml"] as const;

/** One format of a translation request. */
export type TranslationFormat = (typeof TRANSLATION_FORMATS)[number];

/** An XML name (a tag's name: letters of any script, digits, `_.:-`), as a regular expression. */
export const XML_NAME = /[\p{L}_:][\p{L}\p{N}\p{M}_.:\-\u00B7]*/u;

/** Element names of the tag options (DeepL's `ignore_tags` and its kin). */
const tagNames = z.array(
  z.string().regex(new RegExp(`^${XML_NAME.source}$`, "u"), "not an element name"),
).max(100);

/** Most code points of a hint to LLM engines: an instruction, the tone, the domain. */
export const MAX_HINT_CHARS = 300;

/**
 * A hint to LLM engines. Bounded as an instruction is: each goes into every prompt of the
 * request, where an unbounded one would crowd out the texts, and is kept with the memory's
 * translations.
 */
const hint = z.string().refine(
  (text) => withinCodePoints([text], MAX_HINT_CHARS),
  `over ${MAX_HINT_CHARS} characters`,
);

/** TranslateOptions: all optional, no extra members. */
export const TranslateOptionsSchema = z.strictObject({
  engine: z.enum(["auto", ...EngineIdSchema.options]).optional()
    .describe("Engine to use: auto (local-first pipeline, the default) or an engine identifier."),
  model: z.string().min(1).optional()
    .describe(
      "Model of the engine (for local-llm `<org>/<name>`); default: the engine's configured model.",
    ),
  preserve_formatting: z.boolean().optional()
    .describe("Keep line breaks and surrounding white space of each item."),
  tone: hint.optional().describe(
    `Free-text tone hint for LLM engines, at most ${MAX_HINT_CHARS} characters.`,
  ),
  instructions: z.array(hint.min(1)).max(10).optional().describe(
    "Up to 10 instructions of at most 300 characters on how to translate, for LLM engines " +
      '(DeepL\'s custom_instructions), e.g. "Address the reader informally"; the built-in ' +
      "engine does not read them.",
  ),
  context: z.string().refine(
    (text) => withinCodePoints([text], LIMITS.max_chars_per_item),
    {
      message: `the context is over ${LIMITS.max_chars_per_item} characters`,
      ...tooLarge("options.context"),
    },
  ).optional().describe(
    "Text around the items that LLM engines read to understand them and never translate " +
      "(DeepL's context); the built-in engine does not read it.",
  ),
  domain: hint.optional().describe(
    `Free-text domain hint for LLM engines, at most ${MAX_HINT_CHARS} characters.`,
  ),
  return_alternatives: z.boolean().optional()
    .describe("Return up to 3 distinct alternatives per item; default false."),
  glossary_id: z.string().nullable().optional().describe("Glossary to apply; null for none."),
  memory: z.boolean().optional().describe("Use translation memory."),
  sensitive: z.boolean().optional()
    .describe("Default false; when true nothing of the request or result is stored or logged."),
  ignore_tags: tagNames.optional().describe(
    "Format html or xml: elements kept whole, their content not translated (DeepL's ignore_tags).",
  ),
  splitting_tags: tagNames.optional()
    .describe("Format xml: elements whose tags always split sentences."),
  non_splitting_tags: tagNames.optional()
    .describe("Format xml: elements whose tags never split sentences."),
  outline_detection: z.boolean().optional().describe(
    "Format xml: an element whose parent holds no text of its own is structure, its tags " +
      "between sentences (default true); false: only splitting_tags split.",
  ),
}).describe("Options of a translation request.");

/** The tag options, and the formats that read each (one rule for every route). */
export const TAG_OPTION_FORMATS = {
  ignore_tags: ["html", "xml"],
  splitting_tags: ["xml"],
  non_splitting_tags: ["xml"],
  outline_detection: ["xml"],
} as const satisfies Record<string, readonly TranslationFormat[]>;

/** TranslateRequest (strict: unknown fields are rejected). */
export const TranslateRequestSchema = z.strictObject({
  source: requestSourceLanguage.optional()
    .describe("Source language code, or auto (default) to detect each item."),
  target: requestLanguage.describe("Target language code."),
  texts: TextBatchSchema,
  mode: z.enum(TRANSLATION_MODES).optional().describe("Kind of text; default paragraph."),
  format: z.enum(TRANSLATION_FORMATS).optional().describe("Markup of the texts; default text."),
  options: TranslateOptionsSchema.nullable().optional(),
}).superRefine((request, context) => {
  // A tag option the format does not read would be silently ignored: refused instead.
  const format = request.format ?? "text";
  for (const [option, formats] of Object.entries(TAG_OPTION_FORMATS)) {
    const given = request.options?.[option as keyof typeof TAG_OPTION_FORMATS];
    if (given === undefined || (formats as readonly string[]).includes(format)) continue;
    context.addIssue({
      code: "custom",
      path: ["options", option],
      message: `applies to format ${formats.join(" or ")}, not ${format}`,
    });
  }
  // Lists or quotes nested this deep on one line would hold the service for seconds to minutes.
  if (format !== "markdown") return;
  request.texts.forEach((text, index) => {
    const line = overNestedLine(text);
    if (line === undefined) return;
    context.addIssue({
      code: "custom",
      path: ["texts", index],
      message: `line ${line} opens more than ${MAX_NESTING} lists or block quotes one inside ` +
        `another; Markdown nested this deep is not read (send the item with format "text")`,
    });
  });
}).describe("A batch translation request.");

/** DetectRequest (strict). */
export const DetectRequestSchema = z.strictObject({
  texts: TextBatchSchema,
  options: z.record(z.string(), z.unknown()).nullable().optional()
    .describe("Arbitrary options; `engine` picks a detector by name."),
}).describe("A batch language-detection request.");

/** Usage of one request. */
export const TranslationUsageSchema = z.strictObject({
  input_chars: z.int().min(0).describe("Code points across all input items."),
  output_chars: z.int().min(0).nullable().optional()
    .describe("Code points across all outputs; absent for detection."),
  latency_ms: z.int().min(0).describe("Server-side processing time in milliseconds."),
});

const probability = z.number().min(0).max(1);

/** One translated item. */
export const TranslateResultSchema = z.strictObject({
  index: z.int().min(0).describe("Position of the input item."),
  text: z.string().describe("The translation."),
  detected_source: z.string().describe("Language the detector found for this item (BCP 47)."),
  confidence: probability.describe("Engine sequence confidence, else detection confidence; 0..1."),
  alternatives: z.array(z.string()).max(MAX_ALTERNATIVES)
    .describe("Up to 3 distinct alternatives; empty when none."),
});

/** TranslateResponse. */
export const TranslateResponseSchema = z.strictObject({
  id: z.string().regex(/^tr_[0-9a-f-]{36}$/).describe("tr_<uuid>"),
  object: z.literal("translation"),
  created: z.int().min(0).describe("Epoch seconds."),
  engine: z.string().describe("Engine that served the request (passthrough when none was needed)."),
  model: z.string().describe("Model that served the request."),
  source: z.string().describe(
    "Resolved source language: explicit, or detected for most items (letterless ones left out; " +
      "`und` when every item is letterless).",
  ),
  target: LanguageCodeSchema,
  results: z.array(TranslateResultSchema).describe("One per input item, same order."),
  usage: TranslationUsageSchema,
  glossary: z.strictObject({
    matched: z.int().min(0).describe("Glossary terms found in the texts."),
    applied: z.int().min(0).describe("Of those, the ones the translations use."),
  }).optional().describe(
    "With `options.glossary_id` only: what the glossary did (over HTTP also the " +
      "`Svc-Glossary-Report` header; a WebSocket reply has no headers).",
  ),
});

/** One detected item. */
export const DetectResultSchema = z.strictObject({
  index: z.int().min(0),
  language: z.string().describe("BCP 47 code; und for text without letters."),
  confidence: probability,
});

/** DetectResponse. */
export const DetectResponseSchema = z.strictObject({
  id: z.string().regex(/^det_[0-9a-f-]{36}$/).describe("det_<uuid>"),
  object: z.literal("language_detection"),
  created: z.int().min(0).describe("Epoch seconds."),
  results: z.array(DetectResultSchema),
  usage: TranslationUsageSchema,
});

/** HealthResponse. */
export const HealthResponseSchema = z.strictObject({
  status: z.string().describe("ok"),
  app: z.string().describe("Application name: tolk."),
  version: z.string().describe("<semver> (<build>)"),
  api_version: z.string().regex(/^v\d+$/),
  uptime_ms: z.int().min(0),
  ready: z.boolean().describe("True when at least one engine would translate right now."),
});

/** A model of an engine. */
export const EngineModelSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  ready: z.boolean(),
});

/** An engine in capabilities. */
export const EngineSchema = z.strictObject({
  id: EngineIdSchema,
  name: z.string(),
  ready: z.boolean().describe("True only if a translation would be attempted right now."),
  models: z.array(EngineModelSchema).nullable().optional().describe("Null when it cannot list."),
});

/** CapabilitiesResponse. */
export const CapabilitiesResponseSchema = z.strictObject({
  app: z.string(),
  version: z.string(),
  api_version: z.string(),
  engines: z.array(EngineSchema),
  languages: z.array(LanguageCodeSchema),
  features: FeaturesSchema,
  limits: z.strictObject({
    max_items: z.int(),
    max_chars_per_item: z.int(),
    max_total_chars: z.int(),
  }),
});

/** Error types of the contract. */
export const ERROR_TYPES = [
  "invalid_request_error",
  "authentication_error",
  "server_error",
] as const;

/** Every error code of `tolk serve` (translation-service.md §7, DECISIONS.md). */
export const TranslationErrorCodeSchema = z.enum([
  "invalid_request",
  "unauthorized",
  "ws_unauthorized",
  "permission_required",
  "host_not_allowed",
  "origin_not_allowed",
  "not_found",
  "payload_too_large",
  "batch_too_large",
  "unsupported_language",
  "internal_error",
  "engine_unavailable",
  "storage_unavailable",
]).describe("The contract code of an error; clients switch on it, never on the message.");

/** ErrorResponse. */
export const ErrorResponseSchema = z.strictObject({
  error: z.strictObject({
    code: TranslationErrorCodeSchema,
    message: z.string().describe("Human-readable; never an internal detail or request text."),
    type: z.enum(ERROR_TYPES),
    param: z.string().nullable().optional().describe("Offending request field, null when none."),
  }),
});

/** A validated translation request. */
export type TranslateRequest = z.infer<typeof TranslateRequestSchema>;
/** A translation request's options. */
export type TranslateOptions = z.infer<typeof TranslateOptionsSchema>;
/** A translation response body. */
export type TranslateResponse = z.infer<typeof TranslateResponseSchema>;
/** A validated detection request. */
export type DetectRequest = z.infer<typeof DetectRequestSchema>;
/** A detection response body. */
export type DetectResponse = z.infer<typeof DetectResponseSchema>;
/** A health response body. */
export type HealthResponse = z.infer<typeof HealthResponseSchema>;
/** A capabilities response body. */
export type CapabilitiesResponse = z.infer<typeof CapabilitiesResponseSchema>;
/** An error response body. */
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;
/** A contract error code of `tolk serve`. */
export type TranslationErrorCode = z.infer<typeof TranslationErrorCodeSchema>;
