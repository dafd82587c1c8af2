/**
 * The glossary routes' contract (DECISIONS.md, "Glossaries"): a glossary holds one dictionary
 * per language pair; entries travel as TSV or CSV text.
 */
import { z } from "zod";
import { LanguageCodeSchema } from "./languages.ts";

/** Most entries in one dictionary. */
export const MAX_GLOSSARY_ENTRIES = 10_000;

/** Most code points in one term (source or target). */
export const MAX_TERM_CODE_POINTS = 256;

// A string first, then the enum: a non-string is a 400, a string outside the set is a 422.
const language = z.string().pipe(LanguageCodeSchema);

// node:sqlite reads a stored text only up to a NUL: "n\0ame" was kept and answered as "n".
const name = z.string().min(1).max(256).refine(
  (text) => !text.includes("\u0000"),
  "a name holding U+0000",
);

/** The text formats of entries. */
export const ENTRIES_FORMATS = ["tsv", "csv"] as const;

/** A dictionary in a request: one language pair and its entries. */
export const DictionaryInputSchema = z.strictObject({
  source_lang: language.describe("Language of the source terms."),
  target_lang: language.describe("Language of the target terms."),
  entries: z.string().max(8 * 1024 * 1024).describe(
    "One entry per line: `source<TAB>target` (tsv) or two RFC 4180 fields (csv). An empty target means: do not translate, keep the source term. At most 10000 entries, terms at most 256 characters, each source term once.",
  ),
  entries_format: z.enum(ENTRIES_FORMATS).describe("tsv or csv."),
}).describe("The entries of one language pair.");

/** `POST /v1/glossaries` body. */
export const CreateGlossaryRequestSchema = z.strictObject({
  name: name.describe("A name for people; need not be unique."),
  dictionaries: z.array(DictionaryInputSchema).min(1).max(240)
    .describe("One dictionary per language pair; a pair at most once."),
}).describe("A new glossary.");

/** `PATCH /v1/glossaries/{glossary_id}` body. */
export const PatchGlossaryRequestSchema = z.strictObject({
  name: name.optional().describe("A new name."),
  dictionaries: z.array(DictionaryInputSchema).max(240).optional()
    .describe("Dictionaries that replace the one of their language pair (others are kept)."),
}).describe("Changes to a glossary.");

/** A dictionary as a glossary lists it. */
export const DictionarySummarySchema = z.strictObject({
  source_lang: LanguageCodeSchema,
  target_lang: LanguageCodeSchema,
  entry_count: z.int().min(0).describe("Entries in this dictionary."),
});

/** A glossary. */
export const GlossarySchema = z.strictObject({
  glossary_id: z.string().describe("Identifier (a UUID)."),
  name: z.string(),
  dictionaries: z.array(DictionarySummarySchema).describe("Ordered by source, then target."),
  creation_time: z.string().describe("ISO 8601 time of creation (UTC)."),
}).describe("A glossary and its dictionaries.");

/** `GET /v1/glossaries` answer. */
export const GlossaryListSchema = z.strictObject({
  glossaries: z.array(GlossarySchema).describe("Every glossary, oldest first."),
});

/** `GET /v1/glossaries/{glossary_id}/entries` query. */
export const GlossaryEntriesQuerySchema = z.strictObject({
  source_lang: language.optional().describe("Only this source language."),
  target_lang: language.optional().describe("Only this target language."),
});

/** `DELETE /v1/glossaries/{glossary_id}/dictionaries` query. */
export const GlossaryDictionaryQuerySchema = z.strictObject({
  source_lang: language.describe("Source language of the dictionary to remove."),
  target_lang: language.describe("Target language of the dictionary to remove."),
});

/** `GET /v1/glossaries/{glossary_id}/entries` answer. */
export const GlossaryEntriesSchema = z.strictObject({
  dictionaries: z.array(z.strictObject({
    source_lang: LanguageCodeSchema,
    target_lang: LanguageCodeSchema,
    entries: z.string().describe("TSV, one `source<TAB>target` per line, in stored order."),
    entries_format: z.literal("tsv"),
  })),
});

/** A validated create request. */
export type CreateGlossaryRequest = z.infer<typeof CreateGlossaryRequestSchema>;
/** A validated patch request. */
export type PatchGlossaryRequest = z.infer<typeof PatchGlossaryRequestSchema>;
/** A dictionary of a request. */
export type DictionaryInput = z.infer<typeof DictionaryInputSchema>;
/** A glossary body. */
export type GlossaryBody = z.infer<typeof GlossarySchema>;
