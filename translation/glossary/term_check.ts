/**
 * Checks that a translation uses a term's required form: the target term, or the source term
 * itself when the entry says "do not translate".
 *
 * What it can see: the required text present, case-insensitively (NFC), as a whole word in
 * languages with spaces, as a substring in zh, ja, th, lo, km and my, and as a word prefix in
 * fr, de and es so inflected forms count ("Datenbank" → "Datenbanken"), and in ko followed by
 * particles ("데이터베이스를", translation/glossary/korean_particles.ts). What it cannot see:
 * whether the term sits where the source term was, inflections that change the stem
 * ("Maus" → "Mäuse"), a term inside a compound ("Kundendatenbank"), or a term used once where
 * the source had it twice.
 */
import {
  type GlossaryTerm,
  isWordChar,
  lower,
  particlesEndWord,
  SPACELESS_LANGUAGES,
} from "./term_matcher.ts";

/** Languages whose target terms count with a case-insensitive prefix match (inflection). */
export const PREFIX_MATCH_LANGUAGES: ReadonlySet<string> = new Set(["fr", "de", "es"]);

/** The text a translation must contain for `term`. */
export function requiredForm(term: GlossaryTerm): string {
  return (term.target === "" ? term.source : term.target).normalize("NFC");
}

/** True when `translation` (in `targetLanguage`) uses the term's required form. */
export function termApplied(
  translation: string,
  term: GlossaryTerm,
  targetLanguage: string,
): boolean {
  return termChecker(translation, targetLanguage)(term);
}

// The lower-cased required form of each term, kept while the term is (terms live in compiled,
// cached matchers, so a request checks its terms without normalising them again).
const requiredKeys = new WeakMap<GlossaryTerm, string>();

function requiredKey(term: GlossaryTerm): string {
  let key = requiredKeys.get(term);
  if (key === undefined) {
    requiredKeys.set(term, key = lower(requiredForm(term)).replace(/\s+/g, " "));
  }
  return key;
}

/**
 * A check of many terms against one translation: the translation is normalised once.
 */
export function termChecker(
  translation: string,
  targetLanguage: string,
): (term: GlossaryTerm) => boolean {
  // White space as one space (a term may wrap, or span markup whose tokens were blanked).
  const text = lower(translation.normalize("NFC")).replace(/\s+/g, " ");
  const spaceless = SPACELESS_LANGUAGES.has(targetLanguage);
  const inflected = PREFIX_MATCH_LANGUAGES.has(targetLanguage);
  const korean = targetLanguage === "ko";
  return (term) => {
    const required = requiredKey(term);
    if (spaceless) return text.includes(required);
    // A kept source term is a name: it must come back as written, not inflected.
    const prefixOnly = inflected && term.target !== "";
    for (let at = text.indexOf(required); at >= 0; at = text.indexOf(required, at + 1)) {
      const end = at + required.length;
      const startsWord = !isWordChar(text[at - 1]) || !isWordChar(required[0]);
      const endsWord = !isWordChar(text[end]) || !isWordChar(required[required.length - 1]) ||
        (korean && particlesEndWord(text, end));
      if (startsWord && (endsWord || prefixOnly)) return true;
    }
    return false;
  };
}
