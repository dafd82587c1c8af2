/**
 * Finds a dictionary's terms in a text (DECISIONS.md, "Glossaries"): NFC, case-insensitive;
 * whole words for languages written with spaces, substrings for zh, ja, th, lo, km and my;
 * where matches overlap the longest wins.
 *
 * A matcher is compiled once per dictionary (an index by first word or first character), so a
 * request pays for a scan of its texts, not for the size of the glossary.
 */

/** One glossary term; an empty `target` means "do not translate". */
export interface GlossaryTerm {
  source: string;
  target: string;
}

/** A term found in a text: `start`/`end` are UTF-16 offsets in the NFC text. */
export interface TermMatch {
  term: GlossaryTerm;
  start: number;
  end: number;
}

/** Languages written without spaces between words: terms are matched as substrings. */
export const SPACELESS_LANGUAGES: ReadonlySet<string> = new Set([
  "zh",
  "zh-Hans",
  "zh-Hant",
  "ja",
  "th",
  "lo",
  "km",
  "my",
]);

const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/u;
const SPACELESS_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORDS = /[\p{L}\p{M}\p{N}_]+/gu;

/**
 * True for a character that continues a word of a spaced script: a letter of Chinese, Japanese,
 * Thai, Lao, Khmer or Burmese next to a Latin term is a boundary ("東京のdatabase").
 */
export function isWordChar(char: string | undefined): boolean {
  return char !== undefined && WORD_CHAR.test(char) && !SPACELESS_SCRIPT.test(char);
}

interface IndexedTerm {
  term: GlossaryTerm;
  /** NFC, lower-cased source. */
  key: string;
  /** Where the indexed word (or character) starts inside `key`. */
  offset: number;
  wordStart: boolean;
  wordEnd: boolean;
}

/** The compiled terms of one dictionary. */
export class TermMatcher {
  readonly #byKey = new Map<string, IndexedTerm[]>();
  /** Terms without a single letter or digit ("C++" has one; "++" does not): found by search. */
  readonly #symbolic: IndexedTerm[] = [];
  readonly #spaceless: boolean;

  /** Compiles `terms` for texts in `sourceLanguage`. */
  constructor(terms: readonly GlossaryTerm[], sourceLanguage: string) {
    this.#spaceless = SPACELESS_LANGUAGES.has(sourceLanguage);
    for (const term of terms) {
      const key = lower(term.source.normalize("NFC"));
      if (key === "") continue;
      const indexed: IndexedTerm = {
        term,
        key,
        offset: 0,
        wordStart: isWordChar(key[0]),
        wordEnd: isWordChar(key[key.length - 1]),
      };
      let lookup: string;
      if (this.#spaceless) {
        lookup = key[0];
      } else {
        const word = key.match(/[\p{L}\p{M}\p{N}_]+/u);
        if (!word) {
          this.#symbolic.push(indexed);
          continue;
        }
        lookup = word[0];
        indexed.offset = word.index!;
      }
      const list = this.#byKey.get(lookup);
      if (list) list.push(indexed);
      else this.#byKey.set(lookup, [indexed]);
    }
  }

  /**
   * The terms found in `text` (which is normalised to NFC first; offsets refer to that form),
   * in text order, never overlapping.
   */
  match(text: string): TermMatch[] {
    const nfc = text.normalize("NFC");
    const lowered = lower(nfc);
    const found: TermMatch[] = [];
    const tryAt = (candidate: IndexedTerm, start: number) => {
      if (start < 0 || !lowered.startsWith(candidate.key, start)) return;
      const end = start + candidate.key.length;
      if (!this.#spaceless) {
        if (candidate.wordStart && isWordChar(lowered[start - 1])) return;
        if (candidate.wordEnd && isWordChar(lowered[end])) return;
      }
      found.push({ term: candidate.term, start, end });
    };
    if (this.#spaceless) {
      for (let i = 0; i < lowered.length; i++) {
        const candidates = this.#byKey.get(lowered[i]);
        if (candidates) { for (const candidate of candidates) tryAt(candidate, i); }
      }
    } else {
      for (const word of lowered.matchAll(WORDS)) {
        const candidates = this.#byKey.get(word[0]);
        if (!candidates) continue;
        for (const candidate of candidates) tryAt(candidate, word.index - candidate.offset);
      }
    }
    for (const candidate of this.#symbolic) {
      for (
        let at = lowered.indexOf(candidate.key);
        at >= 0;
        at = lowered.indexOf(candidate.key, at + 1)
      ) {
        tryAt(candidate, at);
      }
    }
    return longestFirst(found);
  }
}

/** Keeps the longest of overlapping matches (then the earliest), returned in text order. */
function longestFirst(found: TermMatch[]): TermMatch[] {
  if (found.length < 2) return found;
  found.sort((a, b) => (b.end - b.start) - (a.end - a.start) || a.start - b.start);
  const kept: TermMatch[] = [];
  for (const match of found) {
    if (kept.some((other) => match.start < other.end && other.start < match.end)) continue;
    kept.push(match);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/**
 * Lower case with the same UTF-16 offsets as the input: the rare characters whose lower case
 * has another length (İ) are left as they are.
 */
export function lower(text: string): string {
  const lowered = text.toLowerCase();
  if (lowered.length === text.length) return lowered;
  let out = "";
  for (const char of text) {
    const one = char.toLowerCase();
    out += one.length === char.length ? one : char;
  }
  return out;
}
