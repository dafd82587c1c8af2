/**
 * eld's n-gram scoring (npm eld 2.1.0, "medium" database, Apache-2.0, by Nito T.M.) over a packed
 * copy of its database: the same scores, in the same order, as `eld.detect(text).getScores()`.
 *
 * eld's module holds the database as 105,548 objects and their string keys, 42 MB of heap that
 * every full garbage collection marks again; under 200 WebSocket clients those collections held
 * the event loop 45-75 ms at a time (BENCHMARKS.md, WebSocket load). Here it is a few typed
 * arrays (about 3 MB, nothing for the collector to trace), read from `data/eld_medium_table.json`
 * (made by `data/make_eld_table.ts`; `tests/detection/eld_table_test.ts` holds it to eld).
 *
 * The text steps are eld's (first 1,000 UTF-16 units, separators to spaces, lower case, UTF-8
 * bytes written as eld's dictionary characters, cut after 350-380 bytes, 4-byte n-grams with a
 * stride of 3 and word-boundary spaces, each distinct n-gram counted once); n-grams are kept as
 * numbers instead of strings.
 */
import tableFile from "./data/eld_medium_table.json" with { type: "json" };

/** One language's score (0..1, higher is better). */
export interface EldScore {
  readonly language: string;
  readonly score: number;
}

// eld's constants (languageDetector.js, LanguageResult.js).
const MAX_TEXT_UNITS = 1000;
const CUT_AFTER_BYTES = 350;
const ENFORCE_CUT_AFTER_BYTES = 380;
const MAX_WORD_BYTES = 70;
const BASE_NGRAM_SCORE = 53;
const SCALE = 25;

/** Longest n-gram key in the database; longer n-grams (from words over 70 bytes) never match. */
const MAX_KEY_CHARS = 6;
/** Hash slots: a power of two over twice the 105,548 keys. */
const SLOTS = 1 << 18;
/** The most n-grams one text can have: one per 3 bytes of at most ~384, plus one per word. */
const MAX_NGRAMS = 512;

/**
 * A key of up to {@link MAX_KEY_CHARS} characters below 256 as one exact number: digits
 * `code + 1` in base 257, so no two keys (of any length) share a number (257^6 < 2^53).
 */
function keyNumber(codes: Uint8Array, start: number, end: number, lead: boolean, tail: boolean) {
  let key = lead ? 33 : 0; // a leading space: digit 32 + 1
  for (let i = start; i < end; i++) key = key * 257 + codes[i] + 1;
  return tail ? key * 257 + 33 : key;
}

function slotOf(key: number): number {
  const low = key % 4294967296;
  const high = (key - low) / 4294967296;
  let hash = Math.imul(low | 0, 0x9e3779b1) ^ Math.imul(high | 0, 0x85ebca6b);
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  hash ^= hash >>> 12;
  return hash & (SLOTS - 1);
}

/** eld's medium database, packed, and its scoring. */
export class EldTable {
  readonly #languages: readonly string[];
  /** Byte → the character code eld writes for it. */
  readonly #dictionary = new Uint8Array(256);
  readonly #separators: RegExp;
  /** Open addressing: key number per slot (0 = empty) and its record's index. */
  readonly #slotKeys = new Float64Array(SLOTS);
  readonly #slotRecords = new Int32Array(SLOTS);
  /** Per record, where its languages start in the two arrays below (one more at the end). */
  readonly #recordStarts: Uint32Array;
  readonly #entryLanguages: Uint8Array;
  readonly #entryScores: Uint8Array;
  // Scratch space of one call (detection is synchronous, so one set serves every call).
  readonly #codes = new Uint8Array(ENFORCE_CUT_AFTER_BYTES + 8);
  readonly #wordEnds = new Int32Array(ENFORCE_CUT_AFTER_BYTES + 8);
  readonly #ngrams = new Float64Array(MAX_NGRAMS);
  readonly #totals: Float64Array;

  constructor(file: typeof tableFile = tableFile) {
    this.#languages = file.languages;
    for (let i = 0; i < 256; i++) this.#dictionary[i] = file.dictionary.charCodeAt(i);
    this.#separators = new RegExp(file.separators.source, file.separators.flags);
    this.#totals = new Float64Array(file.languages.length);
    const bytes = Uint8Array.fromBase64(file.table);
    // First pass: count records and entries.
    let records = 0;
    let entries = 0;
    for (let at = 0; at < bytes.length; records++) {
      at += 1 + bytes[at];
      entries += bytes[at];
      at += 1 + 2 * bytes[at];
    }
    this.#recordStarts = new Uint32Array(records + 1);
    this.#entryLanguages = new Uint8Array(entries);
    this.#entryScores = new Uint8Array(entries);
    let entry = 0;
    for (let at = 0, record = 0; at < bytes.length; record++) {
      const length = bytes[at];
      const key = keyNumber(bytes, at + 1, at + 1 + length, false, false);
      at += 1 + length;
      let slot = slotOf(key);
      while (this.#slotKeys[slot] !== 0) slot = (slot + 1) & (SLOTS - 1);
      this.#slotKeys[slot] = key;
      this.#slotRecords[slot] = record;
      this.#recordStarts[record] = entry;
      const count = bytes[at++];
      for (let i = 0; i < count; i++, at += 2, entry++) {
        this.#entryLanguages[entry] = bytes[at];
        this.#entryScores[entry] = bytes[at + 1];
      }
    }
    this.#recordStarts[records] = entry;
  }

  /** eld's scores for `text`, best first; empty when no n-gram is known. */
  scores(text: string): EldScore[] {
    const words = this.#encode(
      text.substring(0, MAX_TEXT_UNITS).replace(this.#separators, " ").trim().toLowerCase(),
    );
    const totals = this.#totals.fill(0);
    const distinct = this.#countNgrams(words, totals);
    let any = false;
    for (let i = 0; i < totals.length; i++) any ||= totals[i] > 0;
    if (!any) return [];
    const scores: EldScore[] = [];
    for (let i = 0; i < totals.length; i++) {
      if (totals[i] <= 0) continue;
      const ngramScore = totals[i] / distinct;
      scores.push({ language: this.#languages[i], score: ngramScore / (ngramScore + SCALE) });
    }
    // Stable, like eld's: ties keep the database's language order.
    return scores.sort((a, b) => b.score - a.score);
  }

  /**
   * eld's `strToUtf8Bytes` into `#codes`: words end where `#wordEnds` says; returns how many
   * words. The bytes are written as eld's dictionary characters, ASCII as itself.
   */
  #encode(str: string): number {
    const codes = this.#codes;
    const dictionary = this.#dictionary;
    let length = 0;
    let wordStart = 0;
    let words = 0;
    let countBytes = 0;
    for (let ii = 0; ii < str.length; ii++) {
      let charCode = str.charCodeAt(ii);
      if (charCode < 0x80) {
        if (charCode === 32) {
          if (length > wordStart) {
            this.#wordEnds[words++] = length;
            wordStart = length;
          }
          if (countBytes > CUT_AFTER_BYTES) break;
        } else {
          codes[length++] = charCode;
        }
        countBytes++;
      } else if (charCode < 0x800) {
        codes[length++] = dictionary[0xc0 | (charCode >> 6)];
        codes[length++] = dictionary[0x80 | (charCode & 0x3f)];
        countBytes += 2;
      } else if (charCode < 0xd800 || charCode >= 0xe000) {
        codes[length++] = dictionary[0xe0 | (charCode >> 12)];
        codes[length++] = dictionary[0x80 | ((charCode >> 6) & 0x3f)];
        codes[length++] = dictionary[0x80 | (charCode & 0x3f)];
        countBytes += 3;
      } else {
        ii++;
        charCode = 0x10000 + (((charCode & 0x3ff) << 10) | (str.charCodeAt(ii) & 0x3ff));
        codes[length++] = dictionary[0xf0 | (charCode >> 18)];
        codes[length++] = dictionary[0x80 | ((charCode >> 12) & 0x3f)];
        codes[length++] = dictionary[0x80 | ((charCode >> 6) & 0x3f)];
        codes[length++] = dictionary[0x80 | (charCode & 0x3f)];
        countBytes += 4;
      }
      if (countBytes > ENFORCE_CUT_AFTER_BYTES) break;
    }
    if (length > wordStart) this.#wordEnds[words++] = length;
    return words;
  }

  /**
   * eld's `getByteNgrams` and `calculateScores`: adds each distinct n-gram's scores to `totals`
   * and returns how many distinct n-grams the words have (known to the database or not).
   */
  #countNgrams(words: number, totals: Float64Array): number {
    const codes = this.#codes;
    const ngrams = this.#ngrams;
    let count = 0;
    // N-grams longer than a key (the end of a word over 70 bytes) match nothing, but eld counts
    // each distinct one: they are compared as strings, rarely.
    let long: Set<string> | undefined;
    for (let w = 0, start = 0; w < words; start = this.#wordEnds[w++]) {
      const end = this.#wordEnds[w];
      const wordLength = end - start;
      const len = Math.min(wordLength, MAX_WORD_BYTES);
      let j = 0;
      for (; j + 4 < len; j += 3) {
        ngrams[count++] = keyNumber(codes, start + j, start + j + 4, j === 0, false);
      }
      // eld: (j === 0 ? ' ' : '') + word.substring(len !== 3 ? len - 4 : 0) + ' ', where a
      // negative start is 0 and the end is the word's, not the 70-byte cut.
      const from = start + (len !== 3 ? Math.max(0, len - 4) : 0);
      if (end - from + (j === 0 ? 1 : 0) + 1 <= MAX_KEY_CHARS) {
        ngrams[count++] = keyNumber(codes, from, end, j === 0, true);
      } else {
        long ??= new Set();
        long.add((j === 0 ? " " : "") + String.fromCharCode(...codes.subarray(from, end)));
      }
    }
    ngrams.subarray(0, count).sort();
    let distinct = 0;
    for (let i = 0; i < count; i++) {
      if (i > 0 && ngrams[i] === ngrams[i - 1]) continue;
      distinct++;
      this.#addScores(ngrams[i], totals);
    }
    return distinct + (long?.size ?? 0);
  }

  #addScores(key: number, totals: Float64Array): void {
    let slot = slotOf(key);
    for (let stored = this.#slotKeys[slot]; stored !== 0; stored = this.#slotKeys[slot]) {
      if (stored === key) {
        const record = this.#slotRecords[slot];
        for (let e = this.#recordStarts[record]; e < this.#recordStarts[record + 1]; e++) {
          totals[this.#entryLanguages[e]] += this.#entryScores[e] + BASE_NGRAM_SCORE;
        }
        return;
      }
      slot = (slot + 1) & (SLOTS - 1);
    }
  }
}
