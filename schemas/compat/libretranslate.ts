/**
 * The LibreTranslate wire shapes tolk answers under `/v1/compat/libre`, as zod schemas.
 * Requests are loose (clients add fields such as `secret`); LibreTranslate reads JSON or forms.
 */
import { z } from "zod";

/** `q`: one text, or an array for a batch (JSON only). */
const texts = z.union([z.string(), z.array(z.string())]);

/** Where LibreTranslate clients send their key. */
const apiKey = z.string().optional().describe(
  "The tolk API token, where LibreTranslate clients send it (needed unless a header carries it).",
);

/** POST /translate. */
export const LibreTranslateRequestSchema = z.looseObject({
  q: texts.describe("Text to translate, or an array of texts."),
  source: z.string().describe("Source language, or auto to detect."),
  target: z.string().describe("Target language."),
  format: z.string().optional().describe("text (default) or html."),
  // Read as LibreTranslate's max(0, int(value)): a whole number, in a form a string (spaces
  // around it and a sign allowed); below 0 is 0.
  alternatives: z.union([z.int(), z.string().trim().regex(/^[+-]?\d+$/).transform(Number)], {
    error: "alternatives parameter is not a number",
  }).transform((count) => Math.max(0, count)).optional()
    .describe("How many alternatives to return per text, 0..3 (default 0; below 0 is 0)."),
  api_key: apiKey,
}).describe("A LibreTranslate translate request.");

/** A detected language, confidence in percent. */
export const LibreDetectionSchema = z.strictObject({
  language: z.string().describe("LibreTranslate spelling of the language."),
  confidence: z.number().min(0).max(100).describe("Confidence, 0..100."),
});

/** The answer of POST /translate: arrays when `q` was an array. */
export const LibreTranslateResponseSchema = z.strictObject({
  translatedText: z.union([z.string(), z.array(z.string())]).describe("The translation(s)."),
  detectedLanguage: z.union([LibreDetectionSchema, z.array(LibreDetectionSchema)]).optional()
    .describe("Only when source was auto."),
  alternatives: z.union([z.array(z.string()), z.array(z.array(z.string()))]).optional()
    .describe("Only when alternatives > 0."),
});

/** POST /detect. */
export const LibreDetectRequestSchema = z.looseObject({
  q: texts.describe(
    "Text whose language to detect, or an array of texts (at most 128, 8000 characters each, " +
      "50000 in all, as POST /v1/detect), whose detections are pooled into one list as " +
      "LibreTranslate does: each language once, confidence averaged over its texts.",
  ),
  api_key: apiKey,
});

/** The answer of POST /detect: candidates, best first. */
export const LibreDetectResponseSchema = z.array(LibreDetectionSchema);

/** The answer of GET /languages. */
export const LibreLanguagesResponseSchema = z.array(z.strictObject({
  code: z.string().describe("LibreTranslate spelling."),
  name: z.string().describe("English name."),
  targets: z.array(z.string()).describe("Languages it translates into."),
}));

const namedLanguage = z.strictObject({ code: z.string(), name: z.string() });

/** The answer of GET /frontend/settings. */
export const LibreFrontendSettingsSchema = z.strictObject({
  charLimit: z.int().describe("Most characters per text (-1: none)."),
  frontendTimeout: z.int().describe("Milliseconds a web front end waits before translating."),
  apiKeys: z.boolean().describe("Whether API keys exist (always: the tolk token)."),
  keyRequired: z.boolean().describe("Whether every request needs the key (always)."),
  suggestions: z.boolean().describe("Whether /suggest is served (never: it answers 403)."),
  filesTranslation: z.boolean().describe(
    "Whether /translate_file is served (never: it answers 403).",
  ),
  supportedFilesFormat: z.array(z.string()).describe("File extensions (none)."),
  language: z.strictObject({ source: namedLanguage, target: namedLanguage }),
});

/** LibreTranslate's statuses where they differ from tolk's: a wrong key 403, limits 400. */
export const LIBRE_ERROR_STATUSES: Readonly<Record<number, number>> = {
  401: 403,
  413: 400,
  422: 400,
};

/**
 * LibreTranslate's status for a refusal that says when to retry (a full engine queue): its rate
 * limit's 429, the one "try again later" its clients know (it never answers 503).
 */
export const LIBRE_BUSY_STATUS = 429;

/** LibreTranslate's error body. */
export const LibreErrorSchema = z.strictObject({ error: z.string() });

/** A parsed LibreTranslate translate request. */
export type LibreTranslateRequest = z.infer<typeof LibreTranslateRequestSchema>;
/** A LibreTranslate translate answer. */
export type LibreTranslateResponse = z.infer<typeof LibreTranslateResponseSchema>;
/** A LibreTranslate detection. */
export type LibreDetection = z.infer<typeof LibreDetectionSchema>;
