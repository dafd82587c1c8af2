/**
 * Finds a dictionary's terms in a text (DECISIONS.md, "Glossaries"): NFC, case-insensitive, a
 * typographic apostrophe or hyphen the same as the ASCII one ({@link lower});
 * whole words for languages written with spaces, substrings for zh, ja, th, lo, km and my, never
 * inside an address (word_bounds.ts says where a term may stand); where matches overlap the
 * longest wins.
 *
 * A matcher is compiled once per dictionary, so a request pays for a scan of its texts, not for
 * the size of the glossary. Spaced scripts: terms are indexed by a hash of their first word, and
 * the text's words are hashed while it is scanned (no word is copied), so each word costs one
 * look-up; the text after it is then walked in a trie of those terms' rest, so a thousand terms
 * starting with "the" cost one walk, not a thousand comparisons, at every "the". Scripts without spaces, and terms without a letter or digit: a character trie is
 * walked from each position, so the cost grows with the text and the terms' length, never with
 * how many terms there are.
 */
import { isParticleRun, MOST_PARTICLE_UNITS } from "./korean_particles.ts";
import {
  addressCutter,
  type Edge,
  endsWord,
  isWordCodePoint,
  isWordUnit,
  particlesEndWord,
  startsWord,
  termEdges,
} from "./word_bounds.ts";

// The hash of the current word after each of its UTF-16 units (Korean only), reused between words.
const prefixHashes: number[] = [];

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

/**
 * UTF-16 units of the word character at `at` (a surrogate pair is one code point), or 0. Words
 * are cut where word_bounds.ts sees a boundary, so a term is found next to a character of a
 * script without spaces ("東京のdatabase").
 */
function tokenWidth(text: string, at: number): number {
  const unit = text.charCodeAt(at);
  if (unit >= 0xd800 && unit <= 0xdbff) {
    const low = text.charCodeAt(at + 1);
    if (low >= 0xdc00 && low <= 0xdfff) {
      const char = text.slice(at, at + 2);
      return isWordCodePoint(char) ? 2 : 0;
    }
  }
  return isWordUnit(unit) ? 1 : 0;
}

/**
 * A word's hash, over its UTF-16 units (the same at compile time and while scanning). 30 bits:
 * V8 keeps such numbers unboxed, so a look-up hashes no heap object.
 */
function hashStep(hash: number, unit: number): number {
  return (Math.imul(hash, 31) + unit) & 0x3fffffff;
}

interface CompiledTerm {
  term: GlossaryTerm;
  /** NFC, lower-cased source, runs of white space as one space. */
  key: string;
  /** The key holds a space: in a text, any run of white space stands there. */
  spaced: boolean;
  /** Where the indexed word starts inside `key`, and its length (UTF-16 units). */
  offset: number;
  wordLength: number;
  /** What the term's edges ask of the text beside them (word_bounds.ts). */
  startEdge: Edge;
  endEdge: Edge;
}

/**
 * A node of a character trie: the terms whose key ends here, the next UTF-16 units, and the
 * terms below this node not yet spread out (`pending`, with the path still ahead of them: each
 * is compared whole when a text reaches the node). A node spreads its pending terms out only
 * when it holds more than {@link MOST_PENDING}: 10,000 long terms that share no prefix cost a
 * node each, not one per character (2.8 s to compile, the service stalled meanwhile).
 */
interface TrieNode {
  terms?: CompiledTerm[];
  next?: Map<number, TrieNode>;
  pending?: { compiled: CompiledTerm; path: string }[];
}

const MOST_PENDING = 8;

/** Adds `compiled` under the units of `path` (its whole key unless told). */
function addToTrie(root: TrieNode, compiled: CompiledTerm, path = compiled.key): void {
  let node = root;
  let depth = 0;
  for (; depth < path.length; depth++) {
    const child = node.next?.get(path.charCodeAt(depth));
    if (!child) break;
    node = child;
  }
  place(node, depth, { compiled, path });
}

/** Puts a term at `node` (`depth` units down its path), spreading the node out when full. */
function place(
  node: TrieNode,
  depth: number,
  entry: { compiled: CompiledTerm; path: string },
): void {
  if (depth === entry.path.length) {
    (node.terms ??= []).push(entry.compiled);
    return;
  }
  (node.pending ??= []).push(entry);
  if (node.pending.length <= MOST_PENDING) return;
  const pending = node.pending;
  node.pending = undefined;
  for (const one of pending) {
    const unit = one.path.charCodeAt(depth);
    node.next ??= new Map();
    let child = node.next.get(unit);
    if (!child) node.next.set(unit, child = {});
    place(child, depth + 1, one);
  }
}

/** The compiled terms of one dictionary. */
export class TermMatcher {
  /**
   * Spaced scripts: terms by the hash of their first word, each set in a trie of what follows
   * that word, so the text is read once past a word however many terms start with it ("the").
   */
  readonly #byWord = new Map<number, TrieNode>();
  /**
   * Every term of a script without spaces; for spaced scripts the terms without a single letter
   * or digit ("C++" has one; "++" does not), which can start anywhere.
   */
  readonly #anywhere: TrieNode = {};
  readonly #spaceless: boolean;
  /** Korean: a term followed by particles in the same word still ends a word. */
  readonly #korean: boolean;

  /** Compiles `terms` for texts in `sourceLanguage`. */
  constructor(terms: readonly GlossaryTerm[], sourceLanguage: string) {
    this.#spaceless = SPACELESS_LANGUAGES.has(sourceLanguage);
    this.#korean = sourceLanguage === "ko";
    for (const term of terms) {
      const key = termKey(term.source);
      if (key === "") continue;
      const compiled: CompiledTerm = {
        term,
        key,
        spaced: key.includes(" "),
        offset: 0,
        wordLength: 0,
        startEdge: "free",
        endEdge: "free",
      };
      ({ start: compiled.startEdge, end: compiled.endEdge } = termEdges(key));
      let offset = 0;
      while (offset < key.length && tokenWidth(key, offset) === 0) offset++;
      if (this.#spaceless || offset === key.length) {
        addToTrie(this.#anywhere, compiled);
        continue;
      }
      let end = offset;
      let hash = 0;
      for (let width; end < key.length && (width = tokenWidth(key, end)) > 0; end += width) {
        hash = hashStep(hash, key.charCodeAt(end));
        if (width === 2) hash = hashStep(hash, key.charCodeAt(end + 1));
      }
      compiled.offset = offset;
      compiled.wordLength = end - offset;
      let root = this.#byWord.get(hash);
      if (!root) this.#byWord.set(hash, root = {});
      addToTrie(root, compiled, key.slice(end));
    }
  }

  /**
   * The terms found in `text` (which is normalised to NFC first; offsets refer to that form),
   * in text order, never overlapping.
   */
  match(text: string): TermMatch[] {
    const normal = text.normalize("NFC");
    const lowered = lower(normal);
    const found: TermMatch[] = [];
    if (!this.#spaceless) this.#matchWords(lowered, found);
    if (this.#anywhere.next || this.#anywhere.pending) {
      for (let start = 0; start < lowered.length; start++) this.#walk(lowered, start, found);
    }
    if (found.length === 0) return found;
    // Before the longest is chosen: a term cut off by an address leaves the others be.
    const cutsAddress = addressCutter(normal);
    return longestFirst(found.filter((match) => !cutsAddress(match.start, match.end)));
  }

  /** Cuts `lowered` into words as it goes and tries the terms starting with each. */
  #matchWords(lowered: string, found: TermMatch[]): void {
    let at = 0;
    while (at < lowered.length) {
      let width = tokenWidth(lowered, at);
      if (width === 0) {
        at++;
        continue;
      }
      const wordStart = at;
      let hash = 0;
      for (; width > 0; at += width, width = at < lowered.length ? tokenWidth(lowered, at) : 0) {
        hash = hashStep(hash, lowered.charCodeAt(at));
        if (width === 2) hash = hashStep(hash, lowered.charCodeAt(at + 1));
        if (this.#korean) prefixHashes[at + width - wordStart] = hash;
      }
      this.#tryWord(lowered, wordStart, at, hash, found);
      if (!this.#korean) continue;
      // "데이터베이스에서는": the word without its particles may be a term's first word.
      for (let split = Math.max(wordStart + 1, at - MOST_PARTICLE_UNITS); split < at; split++) {
        if (isParticleRun(lowered, split, at)) {
          this.#tryWord(lowered, wordStart, split, prefixHashes[split - wordStart], found);
        }
      }
    }
  }

  /** Tries the terms whose first word has `hash` and spans `wordStart`..`wordEnd`. */
  #tryWord(
    lowered: string,
    wordStart: number,
    wordEnd: number,
    hash: number,
    found: TermMatch[],
  ): void {
    let node: TrieNode | undefined = this.#byWord.get(hash);
    // A space of a key stands for a run of white space in the text (see keyEnd).
    for (let at = wordEnd; node;) {
      if (node.terms) this.#tryTerms(node.terms, lowered, wordStart, wordEnd, found);
      if (node.pending) this.#tryTerms(node.pending, lowered, wordStart, wordEnd, found);
      if (!node.next || at >= lowered.length) return;
      if (WHITE_SPACE.test(lowered[at])) {
        node = node.next.get(SPACE);
        while (at < lowered.length && WHITE_SPACE.test(lowered[at])) at++;
      } else {
        node = node.next.get(lowered.charCodeAt(at++));
      }
    }
  }

  /** Tries `candidates` (terms, or pending entries with their term) at the word `wordStart`.. */
  #tryTerms(
    candidates: readonly (CompiledTerm | { compiled: CompiledTerm })[],
    lowered: string,
    wordStart: number,
    wordEnd: number,
    found: TermMatch[],
  ): void {
    for (const one of candidates) {
      const candidate = "compiled" in one ? one.compiled : one;
      if (candidate.wordLength !== wordEnd - wordStart) continue;
      const start = wordStart - candidate.offset;
      const end = start >= 0 ? keyEnd(lowered, candidate, start) : -1;
      if (end !== -1) this.#found(candidate, lowered, start, end, found);
    }
  }

  /** Follows the trie from `start`: every term whose key begins there. */
  #walk(lowered: string, start: number, found: TermMatch[]): void {
    let node: TrieNode | undefined = this.#anywhere;
    for (let at = start;; at++) {
      for (const { compiled } of node.pending ?? []) {
        if (lowered.startsWith(compiled.key, start)) {
          this.#found(compiled, lowered, start, start + compiled.key.length, found);
        }
      }
      if (at >= lowered.length) return;
      node = node.next?.get(lowered.charCodeAt(at));
      if (!node) return;
      for (const candidate of node.terms ?? []) {
        this.#found(candidate, lowered, start, at + 1, found);
      }
    }
  }

  /** Records a term found at `start`..`end`, unless it cuts a word (word_bounds.ts). */
  #found(
    candidate: CompiledTerm,
    lowered: string,
    start: number,
    end: number,
    found: TermMatch[],
  ): void {
    if (!startsWord(lowered, start, candidate.startEdge)) return;
    if (
      !endsWord(lowered, end, candidate.endEdge) &&
      !(this.#korean && candidate.endEdge === "word" && particlesEndWord(lowered, end))
    ) return;
    found.push({ term: candidate.term, start, end });
  }
}

/**
 * Where `candidate`'s key ends when it starts at `start` of `lowered`, or -1 when it is not
 * there. A space of a multi-word key stands for any run of white space: a term is the same
 * words when a wrapped Markdown or HTML line breaks it ("translation\nmemory").
 */
function keyEnd(lowered: string, candidate: CompiledTerm, start: number): number {
  const { key } = candidate;
  if (!candidate.spaced) return lowered.startsWith(key, start) ? start + key.length : -1;
  let at = start;
  for (let i = 0; i < key.length; i++) {
    if (key[i] !== " ") {
      if (lowered[at++] !== key[i]) return -1;
      continue;
    }
    if (!WHITE_SPACE.test(lowered[at] ?? "")) return -1;
    while (at < lowered.length && WHITE_SPACE.test(lowered[at])) at++;
  }
  return at;
}

const WHITE_SPACE = /\s/;
const SPACE = 0x20;

/** Keeps the longest of overlapping matches (then the earliest), returned in text order. */
function longestFirst(found: TermMatch[]): TermMatch[] {
  if (found.length < 2) return found;
  if (!inTextOrder(found)) found.sort((a, b) => a.start - b.start);
  // Most texts have no overlapping matches at all: then every match stays.
  let overlaps = false;
  for (let i = 1; i < found.length && !overlaps; i++) overlaps = found[i].start < found[i - 1].end;
  if (!overlaps) return found;
  found.sort((a, b) => (b.end - b.start) - (a.end - a.start) || a.start - b.start);
  const kept: TermMatch[] = [];
  for (const match of found) {
    if (kept.some((other) => match.start < other.end && other.start < match.end)) continue;
    kept.push(match);
  }
  return kept.sort((a, b) => a.start - b.start);
}

function inTextOrder(found: readonly TermMatch[]): boolean {
  for (let i = 1; i < found.length; i++) if (found[i].start < found[i - 1].start) return false;
  return true;
}

/**
 * The form a term is compared in: NFC, {@link lower}, runs of white space as one space. Two
 * source terms with one key are one term to the matcher (a dictionary holds each once).
 */
export function termKey(term: string): string {
  return lower(term.normalize("NFC")).replace(/\s+/g, " ");
}

/**
 * The form terms are compared in, with the same UTF-16 offsets as the input: lower case (the
 * rare characters whose lower case has another length, İ, are left as they are), and the
 * typographic apostrophes and hyphens as their ASCII ones, since editors and word processors
 * swap them freely ("don't" is the term "don’t" typed by hand).
 */
export function lower(text: string): string {
  let lowered = text.toLowerCase();
  if (lowered.length !== text.length) {
    lowered = "";
    for (const char of text) {
      const one = char.toLowerCase();
      lowered += one.length === char.length ? one : char;
    }
  }
  return lowered.replace(APOSTROPHES, "'").replace(HYPHENS, "-");
}

// ‘ ’ ʼ (each one UTF-16 unit, as is what replaces it).
const APOSTROPHES = /[\u2018\u2019\u02bc]/g;
// Hyphen and non-breaking hyphen.
const HYPHENS = /[\u2010\u2011]/g;
