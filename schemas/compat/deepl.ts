/**
 * The DeepL API v2/v3 wire shapes tolk answers under `/v1/compat/deepl` (DECISIONS.md
 * "Compatibility routes"), as zod schemas. Requests are loose: DeepL clients send parameters
 * tolk has no use for and DeepL ignores unknown ones.
 */
import { z } from "zod";

/** A form field sent once or repeated (`text=a&text=b`), or a JSON string or array. */
const oneOrMany = z.union([z.string(), z.array(z.string())])
  .transform((value) => Array.isArray(value) ? value : [value]);

/**
 * A DeepL flag: `"0"`/`"1"` in a form body (as deepl-node sends it; `"true"`/`"false"` too, as
 * hand-written forms do), a boolean in JSON, or the number 0 or 1 there (JSON written from the
 * form's values).
 */
const flag = z.union([z.boolean(), z.enum(["0", "1", "true", "false"]), z.literal([0, 1])], {
  error: "expected 0 or 1 (or true or false)",
}).transform((value) => value === true || value === 1 || value === "1" || value === "true");

/** DeepL's list of tag names: comma-separated in a form body, a string or an array in JSON. */
const tagList = z.union([z.string(), z.array(z.string())]).transform((value) =>
  (Array.isArray(value) ? value : value.split(",")).map((name) => name.trim())
    .filter((name) => name !== "")
);

/** POST /v2/translate, form-encoded or JSON. */
export const DeepLTranslateRequestSchema = z.looseObject({
  text: oneOrMany.describe("Texts to translate; repeat `text` in a form body."),
  target_lang: z.string().describe("Target language, any spelling (EN-US, ZH-HANS, …)."),
  source_lang: z.string().optional()
    .describe(
      "Source language; absent to detect each text. ZH is Chinese of either script (toward a " +
        "Chinese target, the texts' script).",
    ),
  tag_handling: z.string().optional()
    .describe(
      "html or xml (any case): translate markup, keeping every tag (tolk's formats html and xml).",
    ),
  tag_handling_version: z.string().optional()
    .describe(
      "v1 or v2: with v2 and tag_handling=xml, a text that is not well-formed XML is refused, " +
        "as DeepL refuses it; the answer names the version.",
    ),
  model_type: z.string().optional()
    .describe(
      "quality_optimized, prefer_quality_optimized or latency_optimized: tolk has one way to " +
        "translate; the answer names the type as DeepL does (model_type_used). Another value " +
        "is ignored.",
    ),
  formality: z.string().optional()
    .describe(
      "default, more, less, prefer_more, prefer_less, formal, informal: passed to engines as a " +
        "tone; more, less, formal and informal are refused while the built-in model (which reads " +
        "no tone) would translate, as DeepL refuses them for a target without formality.",
    ),
  glossary_id: z.string().optional().describe("A tolk glossary id; needs source_lang."),
  glossary_ids: tagList.optional()
    .describe(
      "Glossary ids, comma-separated (deepl-node's glossaryIds): tolk applies one glossary per " +
        "request, so one id; needs source_lang.",
    ),
  style_id: z.string().optional()
    .describe("A DeepL style rule (deepl-node's styleRule): tolk has none, so it is refused."),
  translation_memory_id: z.string().optional()
    .describe(
      "A DeepL translation memory (deepl-node's translationMemory): tolk has none, so it is " +
        "refused; tolk's own memory is switched on in its settings.",
    ),
  custom_instructions: oneOrMany.optional()
    .describe("Instructions on how to translate (repeat in a form body): read by LLM engines."),
  context: z.string().optional()
    .describe("Text around the texts: LLM engines read it and never translate it."),
  // DeepL documents strings; JSON written from the form's values has the numbers 0 and 1.
  split_sentences: z.union([z.string(), z.number()]).transform(String).optional()
    .describe("1 (default for text): lines are separate units; 0 or nonewlines: one unit."),
  preserve_formatting: flag.optional()
    .describe(
      "Read and accepted; lines are split_sentences' alone (outer white space is always kept).",
    ),
  ignore_tags: tagList.optional()
    .describe("With tag_handling: elements kept whole, their content not translated."),
  splitting_tags: tagList.optional()
    .describe("With tag_handling=xml: elements whose tags always split sentences."),
  non_splitting_tags: tagList.optional()
    .describe("With tag_handling=xml: elements whose tags never split sentences."),
  outline_detection: flag.optional()
    .describe(
      "With tag_handling=xml: find structure elements (default 1); 0: splitting_tags only.",
    ),
  show_billed_characters: flag.optional()
    .describe("1: each translation says its billed_characters (deepl-node always sends 1)."),
}).describe("A DeepL translate request.");

/** One translation of a DeepL response. */
export const DeepLTranslationSchema = z.strictObject({
  detected_source_language: z.string()
    .describe(
      "Source language, a DeepL source code (EN, ZH, …); the target's for text without letters.",
    ),
  text: z.string().describe("The translation."),
  billed_characters: z.int().min(0).optional()
    .describe(
      "With show_billed_characters only, as at DeepL: characters of the input text (code points).",
    ),
  tag_handling_version: z.enum(["v1", "v2"]).optional()
    .describe("The request's tag_handling_version, when it named one."),
  model_type_used: z.enum(["quality_optimized", "latency_optimized"]).optional()
    .describe(
      "When the request named a model_type: that type (prefer_quality_optimized is " +
        "quality_optimized, as at DeepL).",
    ),
});

/** The answer of POST /v2/translate. */
export const DeepLTranslateResponseSchema = z.strictObject({
  translations: z.array(DeepLTranslationSchema).describe("One per text, same order."),
});

/** GET /v2/languages' query, or POST /v2/languages' body (form or JSON) or query. */
export const DeepLLanguagesRequestSchema = z.object({
  type: z.enum(["source", "target"]).optional().describe("Default source."),
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

/** A v3 glossary dictionary in a JSON request (form bodies say `dictionaries[0].entries`). */
export const DeepLDictionaryInputSchema = z.looseObject({
  source_lang: z.string().describe("Source language, any spelling."),
  target_lang: z.string().describe("Target language, any spelling."),
  entries: z.string().describe("The entries, TSV or CSV."),
  entries_format: z.string().optional().describe("tsv (default) or csv."),
});

/** POST /v3/glossaries and PATCH /v3/glossaries/{glossary_id}, JSON or form-encoded. */
export const DeepLGlossaryRequestSchema = z.looseObject({
  name: z.string().optional().describe("The glossary's name (required to create)."),
  dictionaries: z.array(DeepLDictionaryInputSchema).optional()
    .describe("Dictionaries, one per language pair; in a form, `dictionaries[i].<field>`."),
}).describe("A DeepL v3 glossary request.");

/** PUT /v3/glossaries/{glossary_id}/dictionaries: one dictionary, replaced whole. */
export const DeepLDictionaryRequestSchema = DeepLDictionaryInputSchema;

/** A dictionary as a DeepL v3 glossary lists it. */
export const DeepLDictionarySummarySchema = z.strictObject({
  source_lang: z.string().describe("DeepL spelling, lower case."),
  target_lang: z.string().describe("DeepL spelling, lower case."),
  entry_count: z.int().min(0),
});

/** A DeepL v3 glossary (a tolk glossary). */
export const DeepLGlossarySchema = z.strictObject({
  glossary_id: z.string(),
  name: z.string(),
  dictionaries: z.array(DeepLDictionarySummarySchema),
  creation_time: z.string().describe("ISO 8601."),
});

/** GET /v3/glossaries. */
export const DeepLGlossaryListSchema = z.strictObject({ glossaries: z.array(DeepLGlossarySchema) });

/** GET /v3/glossaries/{glossary_id}/entries. */
export const DeepLGlossaryEntriesSchema = z.strictObject({
  dictionaries: z.array(z.strictObject({
    source_lang: z.string(),
    target_lang: z.string(),
    entries: z.string().describe("TSV."),
    entries_format: z.literal("tsv"),
  })),
});

/** The media type of GET /v2/glossaries/{glossary_id}/entries (DeepL's: TSV, not JSON). */
export const TSV_MEDIA_TYPE = "text/tab-separated-values";

/** GET /v2/glossaries/{glossary_id}/entries: the one dictionary's entries. */
export const DeepLV2GlossaryEntriesSchema = z.string().describe(
  "One entry per line, `source<TAB>target`, each line ending in a line feed.",
);

/** POST /v2/glossaries (DeepL's first glossaries: one language pair each), JSON or form. */
export const DeepLV2GlossaryRequestSchema = z.looseObject({
  name: z.string().describe("The glossary's name."),
  source_lang: z.string().describe("Source language, any spelling."),
  target_lang: z.string().describe("Target language, any spelling."),
  entries: z.string().describe("The entries, TSV or CSV."),
  entries_format: z.string().optional().describe("tsv (default) or csv."),
}).describe("A DeepL v2 glossary request.");

/** A DeepL v2 glossary: a tolk glossary with one dictionary. */
export const DeepLV2GlossarySchema = z.strictObject({
  glossary_id: z.string(),
  name: z.string(),
  ready: z.boolean().describe("Always true: tolk's glossaries are usable at once."),
  source_lang: z.string().describe("DeepL spelling, lower case."),
  target_lang: z.string().describe("DeepL spelling, lower case."),
  creation_time: z.string().describe("ISO 8601."),
  entry_count: z.int().min(0),
});

/** GET /v2/glossaries. */
export const DeepLV2GlossaryListSchema = z.strictObject({
  glossaries: z.array(DeepLV2GlossarySchema).describe("The glossaries with one dictionary."),
});

/** GET /v2/glossary-language-pairs. */
export const DeepLGlossaryLanguagePairsSchema = z.strictObject({
  supported_languages: z.array(z.strictObject({
    source_lang: z.string(),
    target_lang: z.string(),
  })),
});

/** Query of the entries and dictionary-delete routes. */
export const DeepLDictionaryQuerySchema = z.object({
  source_lang: z.string().optional().describe("Only this source language."),
  target_lang: z.string().optional().describe("Only this target language."),
});

/**
 * DeepL's statuses where they differ from tolk's: a bad or missing key is 403 (deepl-node's
 * `AuthorizationError`; a 401 surfaces as "unexpected status"), an unknown language 400.
 */
export const DEEPL_ERROR_STATUSES: Readonly<Record<number, number>> = { 401: 403, 422: 400 };

/**
 * DeepL's status for a refusal that says when to retry (a full engine queue): its OpenAPI's
 * "too many requests", which deepl-node reads as `TooManyRequestsError` ("DeepL servers are
 * currently experiencing high load"); 503 is no status of DeepL's /v2/translate.
 */
export const DEEPL_BUSY_STATUS = 429;

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
