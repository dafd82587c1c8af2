/**
 * The one rule for a stored language pair (a glossary dictionary, memory entries): two
 * languages; a pair of one translates nothing.
 */
import { serviceError } from "../../errors/translation_errors.ts";

/**
 * @throws {TranslationServiceError} `invalid_request` naming `param` when the languages are one.
 */
export function checkLanguagePair(
  sourceLang: string,
  targetLang: string,
  param: string,
  where = "",
): void {
  if (sourceLang !== targetLang) return;
  throw serviceError(
    "invalid_request",
    `${where}${sourceLang}→${targetLang} translates nothing (the languages are the same)`,
    { param },
  );
}
