/**
 * One table of the language spellings other clients send (DeepL, LibreTranslate, DeepLX, browser
 * extensions), read case-insensitively, and the spelling each client family expects back.
 *
 * Pure data and functions: no Hono, no I/O.
 */
import { isLanguageCode, LANGUAGE_CODES, type LanguageCode } from "../schemas/languages.ts";

/** A family of clients that spells languages one way. DeepLX clients speak DeepL's codes. */
export type ClientFamily = "deepl" | "libre";

/**
 * The other spellings clients send, lower case, with `_` already turned into `-`.
 * Sources: DECISIONS.md "Compatibility routes", notes "Language spellings clients send", DeepL's
 * and LibreTranslate's own language lists (old LibreTranslate installs say `zh`/`zt`, new ones
 * `zh-Hans`/`zh-Hant`; Android and old Java clients say `in` for Indonesian).
 */
const OTHER_SPELLINGS: Readonly<Record<string, LanguageCode>> = {
  "en-us": "en",
  "en-gb": "en",
  "zh": "zh-Hans",
  "zh-cn": "zh-Hans",
  "zh-sg": "zh-Hans",
  "zt": "zh-Hant",
  "zh-tw": "zh-Hant",
  "zh-hk": "zh-Hant",
  "in": "id",
  "tl": "fil",
  "es-419": "es",
};

/** Every spelling read, lower case: a tolk code reads as itself, then the other spellings. */
export const LANGUAGE_SPELLINGS: Readonly<Record<string, LanguageCode>> = {
  ...Object.fromEntries(LANGUAGE_CODES.map((code) => [code.toLowerCase(), code])),
  ...OTHER_SPELLINGS,
};

/**
 * Reads a language as a client spells it; undefined when tolk does not translate it.
 *
 * @example
 * ```ts
 * fromClientLanguage("ZH-HANT"); // "zh-Hant"
 * fromClientLanguage("tl"); // "fil"
 * ```
 */
export function fromClientLanguage(spelling: string): LanguageCode | undefined {
  const key = spelling.trim().toLowerCase().replaceAll("_", "-");
  return Object.hasOwn(LANGUAGE_SPELLINGS, key) ? LANGUAGE_SPELLINGS[key] : undefined;
}

/** DeepL's source codes: one per language, no variants (DeepL answers `ZH` for any Chinese). */
const DEEPL_SOURCE: Record<LanguageCode, string> = {
  "en": "EN",
  "zh-Hans": "ZH",
  "zh-Hant": "ZH",
  "vi": "VI",
  "th": "TH",
  "id": "ID",
  "ms": "MS",
  "fil": "TL",
  "my": "MY",
  "km": "KM",
  "lo": "LO",
  "ja": "JA",
  "ko": "KO",
  "fr": "FR",
  "de": "DE",
  "es": "ES",
};

/**
 * LibreTranslate's code of a tolk code, as libretranslate.com lists them: tolk's own, but `tl`
 * (Argos's Filipino) for `fil`.
 */
function libreCode(code: LanguageCode): string {
  return code === "fil" ? "tl" : code;
}

/** English names, as both families show them in their language lists. */
export const LANGUAGE_NAMES: Readonly<Record<LanguageCode, string>> = {
  "en": "English",
  "zh-Hans": "Chinese (simplified)",
  "zh-Hant": "Chinese (traditional)",
  "vi": "Vietnamese",
  "th": "Thai",
  "id": "Indonesian",
  "ms": "Malay",
  "fil": "Filipino",
  "my": "Burmese",
  "km": "Khmer",
  "lo": "Lao",
  "ja": "Japanese",
  "ko": "Korean",
  "fr": "French",
  "de": "German",
  "es": "Spanish",
};

/**
 * A tolk code (or a detector's answer outside the 16, or `und`) as the family writes a source or
 * detected language.
 */
export function toClientLanguage(code: string, family: ClientFamily): string {
  if (isLanguageCode(code)) return family === "deepl" ? DEEPL_SOURCE[code] : libreCode(code);
  return family === "deepl" ? code.toUpperCase() : code;
}

/** One entry of a family's language list. */
export interface ClientLanguage {
  code: string;
  language: LanguageCode;
  name: string;
}

/**
 * The languages a family lists as targets. DeepL lists English and Chinese by variant only
 * (deepl-node refuses a bare `en` target), so those two appear twice.
 */
export function clientTargetLanguages(family: ClientFamily): ClientLanguage[] {
  if (family === "libre") return clientSourceLanguages(family);
  return LANGUAGE_CODES.flatMap((language): ClientLanguage[] => {
    const name = LANGUAGE_NAMES[language];
    if (language === "en") {
      return [
        { code: "EN-GB", language, name: "English (British)" },
        { code: "EN-US", language, name: "English (American)" },
      ];
    }
    if (language === "zh-Hans") return [{ code: "ZH-HANS", language, name }];
    if (language === "zh-Hant") return [{ code: "ZH-HANT", language, name }];
    return [{ code: DEEPL_SOURCE[language], language, name }];
  });
}

/** The languages a family lists as sources (DeepL: one `ZH` for both scripts). */
export function clientSourceLanguages(family: ClientFamily): ClientLanguage[] {
  const seen = new Set<string>();
  return LANGUAGE_CODES.flatMap((language): ClientLanguage[] => {
    const code = toClientLanguage(language, family);
    if (seen.has(code)) return [];
    seen.add(code);
    const name = family === "deepl" && code === "ZH" ? "Chinese" : LANGUAGE_NAMES[language];
    return [{ code, language, name }];
  });
}
