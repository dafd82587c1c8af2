/**
 * The 16 language codes of the translation contract, and the engine identifiers.
 *
 * Pure data with zod schemas; imported by schemas, engines and detection alike.
 */
import { z } from "zod";

/** Supported language codes (BCP 47), in the order capabilities report them. */
export const LANGUAGE_CODES = [
  "en",
  "zh-Hans",
  "zh-Hant",
  "vi",
  "th",
  "id",
  "ms",
  "fil",
  "my",
  "km",
  "lo",
  "ja",
  "ko",
  "fr",
  "de",
  "es",
] as const;

/** One supported language code. */
export type LanguageCode = (typeof LANGUAGE_CODES)[number];

/** True when `code` is one of the 16 supported codes. */
export function isLanguageCode(code: string): code is LanguageCode {
  return (LANGUAGE_CODES as readonly string[]).includes(code);
}

/** A supported language code (BCP 47). */
export const LanguageCodeSchema = z.enum(LANGUAGE_CODES)
  .describe("A supported language code (BCP 47): one of the 16 languages of the service.");

/** Engine identifiers, in the default local-first order. */
export const ENGINE_IDS = ["local-llm", "engine-one", "engine-two", "compatible-api"] as const;

/** One engine identifier. */
export type EngineId = (typeof ENGINE_IDS)[number];

/** An engine identifier as it appears in `Engine.id`. */
export const EngineIdSchema = z.enum(ENGINE_IDS)
  .describe(
    "Engine identifier: local-llm (built-in model), engine-one (local model runner), engine-two (desktop model server), compatible-api (any chat-completions server).",
  );
