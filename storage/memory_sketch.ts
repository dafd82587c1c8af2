/**
 * Text keys and similarity of the translation memory, for every script: character bigrams of
 * the lower-cased key (so Thai, Chinese or Japanese need no word breaks), Dice coefficient as
 * the similarity, and a MinHash sketch whose band keys find candidates in an index.
 *
 * Why MinHash: a fuzzy lookup among a million entries cannot compare against each. The sketch is
 * taken over shingles that unrelated texts rarely share (so few candidates come back): pairs of
 * neighbouring words for texts of four words or more, character trigrams otherwise (and for
 * scripts without spaces). 8 bands of 2 hashes put two texts whose shingle sets overlap by
 * Jaccard j in a shared band with probability 1 − (1 − j²)⁸: 98.5% for one word changed in ten
 * (j ≈ 0.64). Similarity itself is then measured exactly (Dice over character bigrams).
 */

/** The fuzzy threshold of DECISIONS.md: hits of at least 75% similarity. */
export const FUZZY_THRESHOLD = 0.75;

const BANDS = 8;
const ROWS = 2;
const HASHES = BANDS * ROWS;
const SEEDS = Array.from({ length: HASHES }, (_, i) => mix32(0x9e3779b9 ^ (i * 0x85ebca6b)));

/** The memory key of a text: NFC, runs of white space as one space, trimmed. */
export function memoryKey(text: string): string {
  return text.normalize("NFC").replace(/\s+/gu, " ").trim();
}

/**
 * The key an entry is stored and looked up by: its {@link memoryKey} with each gap of white space
 * that holds a line break written as its line breaks (CRLF and CR as LF) rather than a space. An
 * exact hit so needs the request's lines: a stored "Good\n\nmorning" answering "Good morning"
 * brought its blank line into a one-line text (and the other way round lost the request's). And
 * texts differing only in their lines are two entries: under one key, a user's "Good\n\nmorning"
 * replaced their "Good morning". CRLF, LF and CR are one line break written three ways (XML reads
 * a TMX's CRLF as LF, so no imported unit answered a Windows text); a hit is given the request's
 * ({@link withLineEnds}).
 */
export function entryKey(text: string): string {
  return text.normalize("NFC").trim().replace(/\s+/gu, (gap) => breaksOf(gap) || " ");
}

/** The line breaks of a gap of white space, CRLF and CR written as LF; "" for none. */
function breaksOf(gap: string): string {
  return gap.replace(/\r\n?/g, "\n").replace(/[^\n\v\f\u0085\u2028\u2029]/gu, "");
}

/**
 * `target` with its line ends (CRLF, LF, CR) written as `text` writes its own, when `text` writes
 * them one way; as stored otherwise (one line, or ends of several kinds).
 */
export function withLineEnds(target: string, text: string): string {
  const ends = new Set(text.match(/\r\n|\r|\n/g));
  return ends.size === 1 ? target.replace(/\r\n|\r|\n/g, [...ends][0]) : target;
}

/** The distinct character bigrams of a key (lower-cased, padded with a space at both ends). */
export function bigrams(key: string): Set<string> {
  const chars = [..." " + key.toLowerCase() + " "];
  const grams = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) grams.add(chars[i] + chars[i + 1]);
  return grams;
}

/** Dice coefficient of two bigram sets, in 0..1. */
export function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const gram of small) if (large.has(gram)) shared++;
  return (2 * shared) / (a.size + b.size);
}

/**
 * Bigram-set sizes a candidate may have to reach `threshold` Dice against a set of `size`:
 * Dice ≤ 2·min/(a+b), so the smaller set must hold at least t/(2−t) of the larger.
 */
export function sizeBounds(size: number, threshold = FUZZY_THRESHOLD): [number, number] {
  const ratio = threshold / (2 - threshold);
  return [Math.ceil(size * ratio), Math.floor(size / ratio)];
}

/** The shingles a key is sketched over (see the module comment). */
export function shingles(key: string): Set<string> {
  const lower = key.toLowerCase();
  const words = lower.split(" ");
  const set = new Set<string>();
  if (words.length >= 4) {
    for (let i = 0; i + 1 < words.length; i++) set.add(`${words[i]} ${words[i + 1]}`);
    return set;
  }
  const chars = [..." " + lower + " "];
  for (let i = 0; i + 2 < chars.length; i++) set.add(chars[i] + chars[i + 1] + chars[i + 2]);
  return set;
}

/**
 * The band keys of a key's shingle set within one language pair: equal keys in any band make
 * two entries candidates. Safe integers, so SQLite stores them as integers.
 */
export function bandKeys(grams: ReadonlySet<string>, pair: string): number[] {
  const mins = new Array<number>(HASHES).fill(0xffffffff);
  for (const gram of grams) {
    const base = fnv1a(gram);
    for (let i = 0; i < HASHES; i++) {
      const value = mix32(base ^ SEEDS[i]);
      if (value < mins[i]) mins[i] = value;
    }
  }
  const pairHash = fnv1a(pair);
  const keys: number[] = [];
  for (let band = 0; band < BANDS; band++) {
    let hash = mix32(pairHash ^ Math.imul(band + 1, 0x27d4eb2d));
    for (let row = 0; row < ROWS; row++) hash = mix32(hash ^ mins[band * ROWS + row]);
    // 21 more bits from a second mix keep the key unique across a million entries.
    keys.push((mix32(hash ^ 0x5bd1e995) & 0x1fffff) * 0x100000000 + hash);
  }
  return keys;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** murmur3's finaliser: a cheap, well-spread 32-bit mix. */
function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
