/**
 * Checks that a translation uses a term's required form: the target term, or the source term
 * itself when the entry says "do not translate".
 *
 * What it can see: the required text present, case-insensitively (NFC), where a term may stand
 * (word_bounds.ts: a whole word, a substring in scripts without spaces, never inside an
 * address), as a word prefix in fr, de and es so inflected forms count ("Datenbank" →
 * "Datenbanken"), and in ko followed by particles ("데이터베이스를", translation/glossary/korean_particles.ts). What it cannot see:
 * whether the term sits where the source term was, inflections that change the stem
 * ("Maus" → "Mäuse"), a term inside a compound ("Kundendatenbank"), or a term used once where
 * the source had it twice.
 */
import { type GlossaryTerm, lower, termKey } from "./term_matcher.ts";
import {
  addressCutter,
  type Edge,
  endsWord,
  particlesEndWord,
  startsWord,
  termEdges,
} from "./word_bounds.ts";

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
const requiredKeys = new WeakMap<GlossaryTerm, RequiredKey>();

interface RequiredKey {
  key: string;
  start: Edge;
  end: Edge;
}

function requiredKey(term: GlossaryTerm): RequiredKey {
  let required = requiredKeys.get(term);
  if (required === undefined) {
    const key = termKey(requiredForm(term));
    requiredKeys.set(term, required = { key, ...termEdges(key) });
  }
  return required;
}

/**
 * A check of many terms against one translation: the translation is normalised once.
 */
export function termChecker(
  translation: string,
  targetLanguage: string,
): (term: GlossaryTerm) => boolean {
  // White space as one space (a term may wrap, or span markup whose tokens were blanked).
  const spaced = translation.normalize("NFC").replace(/\s+/g, " ");
  const text = lower(spaced);
  const cutsAddress = addressCutter(spaced);
  const inflected = PREFIX_MATCH_LANGUAGES.has(targetLanguage);
  const korean = targetLanguage === "ko";
  return (term) => {
    const { key, start, end: endEdge } = requiredKey(term);
    // A kept source term is a name: it must come back as written, not inflected.
    const prefixOnly = inflected && term.target !== "";
    for (let at = text.indexOf(key); at >= 0; at = text.indexOf(key, at + 1)) {
      const end = at + key.length;
      if (!startsWord(text, at, start) || cutsAddress(at, end)) continue;
      if (
        endsWord(text, end, endEdge) || prefixOnly ||
        (korean && endEdge === "word" && particlesEndWord(text, end))
      ) return true;
    }
    return false;
  };
}
