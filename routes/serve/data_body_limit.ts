/**
 * The body limit of routes whose bodies are data (glossaries, memory), not texts to translate:
 * larger than a translation request's, and refused naming the limit rather than `texts`.
 */
import { bodyLimit } from "hono/body-limit";
import { serviceError } from "../../errors/translation_errors.ts";

/** 10,000 entries of two 256-character terms fit (tolk's and DeepL's glossary routes). */
export const GLOSSARY_BODY_MIB = 8;

/**
 * Hono's body limit at `mebibytes`, whose refusal is `payload_too_large` naming the limit.
 *
 * @example
 * ```ts
 * app.use("/v1/glossaries/*", dataBodyLimit(GLOSSARY_BODY_MIB));
 * ```
 */
export function dataBodyLimit(mebibytes: number) {
  return bodyLimit({
    maxSize: mebibytes * 1024 * 1024,
    onError: () => {
      throw serviceError(
        "payload_too_large",
        `the request body is over ${mebibytes} MiB, the most this route takes`,
        { param: null },
      );
    },
  });
}
