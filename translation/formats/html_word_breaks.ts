/**
 * `<wbr>` inside a word (`Super<wbr>Cali<wbr>Fragilistic`, a long compound or product name):
 * a break opportunity, not markup of the sentence. As a placeholder it split the word for the
 * engine (`Super<x1/>Cali`), which then translated two halves or moved the token. The engine
 * reads the whole word; the `<wbr>` comes back, never dropped (DECISIONS: no tag is ever
 * dropped): inside the word where the translation kept it (a name, a term; in any case), else at the end of
 * the text it stood in, before the same markup (the word is gone, and a break opportunity next
 * to other text changes nothing a reader sees), so no tag changes order.
 *
 * An empty element inside a word (`Hel<span></span>lo`, Word's `<o:p></o:p>`, a bookmark's
 * `<a id=_Toc1></a>`: what Word and Google Docs exports leave between two runs of a word) is
 * read the same way, its open and close together.
 *
 * Pure: no I/O.
 */
import type { Markup, PlaceholderSegment, RenderMarkup, SegmentPart } from "./placeholders.ts";

/** A `<wbr>` without attributes (one with a `title` stays a placeholder, translated). */
const WORD_BREAK = /^<wbr\s*\/?>$/i;
const WORD_CHARACTER = /[\p{L}\p{N}\p{M}]/u;
const WORD_END = /[\p{L}\p{N}\p{M}]*$/u;
const WORD_START = /^[\p{L}\p{N}\p{M}]*/u;

/** A `<wbr>` taken out of a sentence's parts. */
export interface WordBreak {
  markup: Markup;
  /** The word it stood in, as written, without it; and where in the word it stood. */
  word: string;
  offset: number;
  /** The markup after it in the sentence (undefined: none, it goes back at the end). */
  anchor: Markup | undefined;
  /** It stands in the same word as the break before it. */
  sameWord: boolean;
}

/**
 * The parts without the `<wbr>`s that stand between two word characters, the text around each
 * joined, and those `<wbr>`s.
 */
export function withoutWordBreaks(
  parts: readonly SegmentPart[],
): { parts: readonly SegmentPart[]; breaks: WordBreak[] } {
  if (!parts.some((_, index) => breakLength(parts, index) > 0)) return { parts, breaks: [] };
  const kept: SegmentPart[] = [];
  /** Each break, the index of the text part it is in and its offset there. */
  const taken: { markup: Markup; at: number; offset: number }[] = [];
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index];
    const before = kept.at(-1);
    const length = breakLength(parts, index);
    const next = parts[index + length];
    if (
      length > 0 &&
      typeof before === "string" && WORD_CHARACTER.test(before.at(-1) ?? "") &&
      typeof next === "string" && WORD_CHARACTER.test(next[0] ?? "")
    ) {
      // An empty element's open and close go back together: two breaks at one place.
      for (let member = index; member < index + length; member++) {
        taken.push({ markup: parts[member] as Markup, at: kept.length - 1, offset: before.length });
      }
      kept[kept.length - 1] = before + next;
      index += length;
      continue;
    }
    kept.push(part);
  }
  let previous = "";
  const breaks = taken.map(({ markup, at, offset }) => {
    const text = kept[at] as string;
    const left = WORD_END.exec(text.slice(0, offset))![0];
    const word = left + WORD_START.exec(text.slice(offset))![0];
    const anchor = kept.slice(at + 1).find((part) => typeof part !== "string") as Markup;
    const place = `${at}:${offset - left.length}`;
    const sameWord = place === previous;
    previous = place;
    return { markup, word, offset: left.length, anchor, sameWord };
  });
  return { parts: kept, breaks };
}

/**
 * How many parts from `index` on are markup that marks no word: a `<wbr>` (1), or an empty
 * element's open and close (2: Word's `<o:p></o:p>`, a bookmark's `<a id=_Toc1></a>`, the
 * `<span></span>` an editor leaves between two runs). 0: none.
 */
function breakLength(parts: readonly SegmentPart[], index: number): number {
  const part = parts[index];
  if (typeof part === "string") return 0;
  // Markdown's inline HTML may give a `<wbr>` any role.
  if (WORD_BREAK.test(part.markup)) return 1;
  const next = parts[index + 1];
  const empty = part.role === "open" && typeof next !== "string" && next?.role === "close" &&
    next.name === part.name;
  return empty ? 2 : 0;
}

/**
 * `segment`, built from `parts` without `breaks`, putting them back into what it restores.
 */
export function withWordBreaks(
  segment: PlaceholderSegment,
  breaks: readonly WordBreak[],
  parts: readonly SegmentPart[],
): PlaceholderSegment {
  if (breaks.length === 0) return segment;
  const source = parts.map((part) => typeof part === "string" ? part : part.markup).join("");
  const restoreMatched: PlaceholderSegment["restoreMatched"] = (matched, render) =>
    putBack(breaks, (hook) => segment.restoreMatched(matched, hook), render);
  return {
    text: segment.text,
    translatable: segment.translatable,
    source,
    runs: segment.runs,
    escapedCharacters: segment.escapedCharacters,
    match: (translated) => segment.match(translated),
    restoreMatched,
    restore(translated, render) {
      const matched = segment.match(translated);
      return matched && restoreMatched(matched, render);
    },
    fromRuns: (translated, render) =>
      putBack(breaks, (hook) => segment.fromRuns(translated, hook), render),
  };
}

/**
 * The restored segment with each break in its word where the word came back (searched in
 * order, outside tags), the others before their anchor or at the end.
 */
function putBack(
  breaks: readonly WordBreak[],
  restore: (render: RenderMarkup | undefined) => string,
  render: RenderMarkup | undefined,
): string {
  const written = (markup: Markup) => render ? render(markup) : markup.markup;
  const words: WordBreak[][] = [];
  for (const wordBreak of breaks) {
    if (wordBreak.sameWord) words[words.length - 1].push(wordBreak);
    else words.push([wordBreak]);
  }
  let output = restore(render);
  let places = wordPlaces(output, words);
  const moved = words.filter((_, index) => places[index] === -1).flat();
  if (moved.length > 0) {
    const before = new Map<Markup, string>();
    let atEnd = "";
    for (const { anchor, markup } of moved) {
      if (anchor === undefined) atEnd += written(markup);
      else before.set(anchor, (before.get(anchor) ?? "") + written(markup));
    }
    output = restore(
      before.size === 0 ? render : (markup) => (before.get(markup) ?? "") + written(markup),
    );
    const trimmed = output.trimEnd();
    output = trimmed + atEnd + output.slice(trimmed.length);
    places = wordPlaces(output, words);
  }
  // From the last one back, so the offsets before it stay right.
  for (let index = words.length - 1; index >= 0; index--) {
    if (places[index] === -1) continue;
    for (let member = words[index].length - 1; member >= 0; member--) {
      const at = places[index] + words[index][member].offset;
      output = output.slice(0, at) + written(words[index][member].markup) + output.slice(at);
    }
  }
  return output;
}

/** Where each word is in `text`, each after the one before it (-1: not there). */
function wordPlaces(text: string, words: readonly WordBreak[][]): number[] {
  let from = 0;
  return words.map(([{ word }]) => {
    const at = wordAt(text, word, from);
    if (at !== -1) from = at + word.length;
    return at;
  });
}

/**
 * Where `word` stands as a whole word in `text` from `from` on, outside tags (-1: nowhere), in
 * any case where lower case keeps the length (German capitalises a noun, a title its words).
 */
function wordAt(text: string, word: string, from: number): number {
  const lower = text.toLowerCase();
  const [within, sought] = lower.length === text.length && word.toLowerCase().length === word.length
    ? [lower, word.toLowerCase()]
    : [text, word];
  for (let at = within.indexOf(sought, from); at !== -1; at = within.indexOf(sought, at + 1)) {
    const whole = !WORD_CHARACTER.test(text[at - 1] ?? "") &&
      !WORD_CHARACTER.test(text[at + word.length] ?? "");
    if (whole && text.lastIndexOf("<", at) <= text.lastIndexOf(">", at)) return at;
  }
  return -1;
}
