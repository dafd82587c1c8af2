/**
 * The DeepL API v2/v3 wire shapes tolk answers under `/v1/compat/deepl` (DECISIONS.md
 * "Compatibility routes"), as zod schemas. Requests are loose: DeepL clients send parameters
 * tolk has no use for (`show_billed_characters`, `model_type`, …) and DeepL ignores unknown ones.
 */
import { z } from "zod";

/** A form field sent once or repeated (`text=a&text=b`), or a JSON string or array. */
const oneOrMany = z.union([z.string(), z.array(z.string())])
  .transform((value) => Array.isArray(value) ? value : [value]);

/** A DeepL flag: `"0"`/`"1"` in a form body, a boolean in JSON. */
const flag = z.union([z.boolean(), z.enum(["0", "1"])]).transform((value) =>
  value === true || value === "1"
);

/** POST /v2/translate, form-encoded or JSON. */
export const DeepLTranslateRequestSchema = z.looseObject({
  text: oneOrMany.describe("Texts to translate; repeat `text` in a form body."),
  target_lang: z.string().describe("Target language, any spelling (EN-US, ZH-HANS, …)."),
  source_lang: z.string().optional().describe("Source language; absent to detect each text."),
  tag_handling: z.string().optional()
    .describe("html or xml: translate markup, keeping every tag (tolk's format html)."),
  formality: z.string().optional()
    .describe("default, more, less, prefer_more, prefer_less: passed to engines as a tone."),
  glossary_id: z.string().optional().describe("A tolk glossary id; needs source_lang."),
  split_sentences: z.string().optional()
    .describe("1 (default for text): lines are separate units; 0 or nonewlines: one unit."),
  preserve_formatting: flag.optional().describe("Keep line breaks and outer white space."),
}).describe("A DeepL translate request.");

/** One translation of a DeepL response. */
export const DeepLTranslationSchema = z.strictObject({
  detected_source_language: z.string().describe("Source language, DeepL spelling (EN, ZH, …)."),
  text: z.string().describe("The translation."),
  billed_characters: z.int().min(0).describe("Characters of the input text (code points)."),
});

/** The answer of POST /v2/translate. */
export const DeepLTranslateResponseSchema = z.strictObject({
  translations: z.array(DeepLTranslationSchema).describe("One per text, same order."),
});

/** One language of GET /v2/languages. */
export const DeepLLanguageSchema = z.strictObject({
  language: z.string().describe("DeepL spelling of the language."),
  name: z.string().describe("English name."),
  supports_formality: z.boolean().optional().describe("Targets only: formality is honoured."),
});

/** The answer of GET /v2/languages. */
export const DeepLLanguagesResponseSchema = z.array(DeepLLanguageSchema);

/** The answer of GET|POST /v2/usage. */
export const DeepLUsageResponseSchema = z.strictObject({
  character_count: z.int().min(0).describe("Characters translated through this route so far."),
  character_limit: z.int().min(0).describe("No quota: a very large number."),
});

/**
 * DeepL's statuses where they differ from tolk's: a bad or missing key is 403 (deepl-node's
 * `AuthorizationError`; a 401 surfaces as "unexpected status"), an unknown language 400.
 */
export const DEEPL_ERROR_STATUSES: Readonly<Record<number, number>> = { 401: 403, 422: 400 };

/** DeepL's error body. */
export const DeepLErrorSchema = z.strictObject({
  message: z.string().describe("What went wrong."),
});

/** A parsed DeepL translate request. */
export type DeepLTranslateRequest = z.infer<typeof DeepLTranslateRequestSchema>;
/** A DeepL translate answer. */
export type DeepLTranslateResponse = z.infer<typeof DeepLTranslateResponseSchema>;
/** One DeepL language list entry. */
export type DeepLLanguage = z.infer<typeof DeepLLanguageSchema>;
/** A DeepL error body. */
export type DeepLError = z.infer<typeof DeepLErrorSchema>;
