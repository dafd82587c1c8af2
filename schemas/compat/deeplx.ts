/**
 * The DeepLX wire shapes tolk answers at `/v1/compat/deeplx/translate` (and `/v1/translate`), as
 * zod schemas; DeepLX's `/v2/translate` answers DeepL's (`./deepl.ts`).
 */
import { z } from "zod";

/** POST /translate. */
export const DeepLXRequestSchema = z.looseObject({
  text: z.string().describe("The text to translate."),
  source_lang: z.string().optional().describe("Source language (DeepL spelling), or auto."),
  target_lang: z.string().describe("Target language (DeepL spelling)."),
  tag_handling: z.string().optional().describe(
    "html or xml: translate markup, keep the tags (tolk's formats html and xml).",
  ),
}).describe(
  "A DeepLX translate request: JSON, read as JSON whatever its Content-Type, as DeepLX reads it.",
);

/** The answer of POST /translate. */
export const DeepLXResponseSchema = z.strictObject({
  code: z.literal(200),
  id: z.int().describe("Request number (epoch milliseconds)."),
  data: z.string().describe("The translation."),
  alternatives: z.array(z.string()).describe("Other translations; empty when none."),
  source_lang: z.string().describe("Source language, DeepL spelling (detected or given)."),
  target_lang: z.string().describe("Target language as the client wrote it, upper case."),
  method: z.string().describe("Who translated: tolk."),
});

/** DeepLX's statuses where they differ from tolk's: every bad request is 400. */
export const DEEPLX_ERROR_STATUSES: Readonly<Record<number, number>> = { 413: 400, 422: 400 };

/** DeepLX's status for a refusal that says when to retry: its "DeepL throttled me" 429. */
export const DEEPLX_BUSY_STATUS = 429;

/** DeepLX's error body. */
export const DeepLXErrorSchema = z.strictObject({
  code: z.int().describe("The HTTP status again."),
  message: z.string(),
});

/** A parsed DeepLX request. */
export type DeepLXRequest = z.infer<typeof DeepLXRequestSchema>;
/** A DeepLX answer. */
export type DeepLXResponse = z.infer<typeof DeepLXResponseSchema>;
