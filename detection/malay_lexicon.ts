/**
 * Generated Indonesian/Malay vocabulary: the words one of Tesseract's two web-text word lists has
 * and the other lacks (`data/malay_lexicon.json`, made by `data/make_malay_lexicon.ts`; Apache-2.0
 * data from tessdata_fast). Far larger than the hand-written markers and noisier, so each word
 * counts once, like an ordinary marker.
 */
import lexicon from "./data/malay_lexicon.json" with { type: "json" };

/** Membership test over one of the two word lists. */
export interface WordSet {
  has(word: string): boolean;
}

/** The two word sets. */
export interface MalayLexicon {
  readonly indonesianOnly: WordSet;
  readonly malayOnly: WordSet;
}

/**
 * Words kept as sorted 32-bit FNV-1a hashes rather than a `Set` of strings: 0.2 MB instead of
 * the 4 MB a `Set` of strings added to idle RSS, with a chance of about 1 in 200,000 that an
 * unlisted word matches.
 */
class HashedWordSet implements WordSet {
  readonly #hashes: Uint32Array;

  /** `words`: space-separated. */
  constructor(words: string) {
    const hashes: number[] = [];
    let start = 0;
    for (let i = 0; i <= words.length; i++) {
      if (i < words.length && words.charCodeAt(i) !== 32) continue;
      if (i > start) hashes.push(fnv1a(words, start, i));
      start = i + 1;
    }
    this.#hashes = Uint32Array.from(hashes).sort();
  }

  has(word: string): boolean {
    const hash = fnv1a(word, 0, word.length);
    const hashes = this.#hashes;
    let low = 0;
    let high = hashes.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (hashes[middle] === hash) return true;
      if (hashes[middle] < hash) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }
}

function fnv1a(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

let loaded: MalayLexicon | undefined;

/**
 * The word sets, built on first use (about 42,000 words; call at start-up to keep that off the
 * first request).
 *
 * @example
 * malayLexicon().malayOnly.has("pemerhatian"); // true
 */
export function malayLexicon(): MalayLexicon {
  loaded ??= {
    indonesianOnly: new HashedWordSet(lexicon.indonesian_only),
    malayOnly: new HashedWordSet(lexicon.malay_only),
  };
  return loaded;
}
