/**
 * The translation memory routes' contract (DECISIONS.md, "Translation memory").
 */
import { z } from "zod";
import { pageLimit } from "./page_limit.ts";
import { LanguageCodeSchema } from "./languages.ts";
import { countCodePoints, LIMITS } from "./translation.ts";

// A string first, then the enum: a non-string is a 400, a string outside the set is a 422.
const language = z.string().pipe(LanguageCodeSchema);
// Only white space is as empty as nothing: TMX import skips such a variant, and a lookup never
// reaches memory with one (translation/memory/memory_step.ts).
const segment = z.string().min(1).refine(
  (text) => text.trim() !== "",
  "a text of only white space",
).refine(
  // The memory cannot keep one (storage/memory_entries_distinct.ts, readableWhole).
  (text) => !text.includes("\u0000"),
  "a text holding U+0000",
).refine(
  (text) => text.isWellFormed(),
  "a text holding half a surrogate pair",
).refine(
  (text) => countCodePoints(text) <= LIMITS.max_chars_per_item,
  `a text is over ${LIMITS.max_chars_per_item} characters`,
);

/** Most entries in one `POST /v1/memory/entries`. */
export const MAX_MEMORY_ENTRIES_PER_REQUEST = 10_000;

/** `GET /v1/memory/entries` query. */
export const MemoryEntriesQuerySchema = z.strictObject({
  source_lang: language.optional().describe("Only this source language."),
  target_lang: language.optional().describe("Only this target language."),
  q: z.string().min(1).max(256).optional()
    .describe("Only entries whose source or target contains this text (ASCII case-insensitive)."),
  limit: pageLimit(200, 50).describe(
    "Entries per page, 1..200; default 50.",
  ),
  cursor: z.string().min(1).max(64).optional().describe("`next_cursor` of the previous page."),
}).describe("Filter and page of the memory.");

/** One memory entry. */
export const MemoryEntrySchema = z.strictObject({
  id: z.string().describe("Identifier, for DELETE /v1/memory/entries/{id}."),
  source_lang: LanguageCodeSchema,
  target_lang: LanguageCodeSchema,
  source: z.string().describe("Source text as stored."),
  target: z.string().describe("Its translation."),
  origin: z.enum(["user", "engine"]).describe(
    "user: added or imported by you (wins); engine: a translation the service stored.",
  ),
  created: z.int().min(0).describe("Epoch seconds."),
});

/** `GET /v1/memory/entries` answer. */
export const MemoryPageSchema = z.strictObject({
  data: z.array(MemoryEntrySchema).describe("Entries, newest first."),
  next_cursor: z.string().nullable().describe("Cursor of the next page; null at the end."),
});

/** `POST /v1/memory/entries` body. */
export const AddMemoryRequestSchema = z.strictObject({
  source_lang: language.describe("Language of the sources."),
  target_lang: language.describe("Language of the targets."),
  entries: z.array(z.strictObject({
    source: segment.describe("A source text (at most 8000 characters)."),
    target: segment.describe("Its translation (at most 8000 characters)."),
  })).min(1).max(MAX_MEMORY_ENTRIES_PER_REQUEST).describe("1 to 10000 pairs; origin user."),
}).describe("Pairs to add to the memory; one with the same source replaces your earlier one.");

/** `POST /v1/memory/entries` answer. */
export const AddMemoryResponseSchema = z.strictObject({
  added: z.int().min(0).describe(
    "Entries written: pairs with the same source (normalised) count once, the later one kept.",
  ),
});

/** `POST /v1/memory/import` answer. */
export const MemoryImportResponseSchema = z.strictObject({
  imported: z.int().min(0).describe(
    "Entries the import left in the memory: units with the same source (normalised), language " +
      "pair and origin count once, the later one kept.",
  ),
  skipped: z.int().min(0).describe(
    "Variants left out: a language outside the 16, empty, over 8000 characters (or paired with " +
      "such a source), or without a partner; and units whose translation a later unit of the " +
      "file replaced with a different one.",
  ),
});

/** `GET /v1/memory/export` query. */
export const MemoryExportQuerySchema = z.strictObject({
  format: z.literal("tmx").default("tmx").describe("tmx (TMX 1.4), the only format."),
});

/**
 * The media types `POST /v1/memory/import` reads as TMX: TMX's own first (what the export is
 * sent as), then the generic XML ones tools send for any XML file.
 */
export const TMX_MEDIA_TYPES = ["application/x-tmx+xml", "application/xml", "text/xml"] as const;

/** A TMX 1.4 document: the body of the import and of the export. */
export const TmxDocumentSchema = z.string().describe(
  "A TMX 1.4 document (XML), UTF-8 or UTF-16 (by its byte-order mark, or by its `<?xml`).",
);

/** A validated add request. */
export type AddMemoryRequest = z.infer<typeof AddMemoryRequestSchema>;
