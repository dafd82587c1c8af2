/**
 * Segments through an engine and back: every translatable segment of every item goes to the
 * engine once (identical ones once per request in `webpage` mode), each answer's placeholders
 * are verified, and a segment whose placeholders did not come back exactly once, in order, is
 * put back by the fallback: its text runs between markup are translated one by one and every
 * piece of markup stays where it was. Sentences may read less well; no tag is ever dropped,
 * duplicated or moved. An empty answer for a segment (a small model can end at once) is as
 * broken, and a run whose answer is empty again stays as written: no text is ever lost. The
 * caller logs how many segments needed it.
 */
import type { TranslatedItem, TranslationItem } from "../engines/engine.ts";
import { withoutPlaceholders } from "../engines/placeholder_tokens.ts";
import type { CutItem, RenderedSegment } from "./formats/format.ts";
import type { MatchedTranslation, PlaceholderSegment } from "./formats/placeholders.ts";

/** Sends texts to the engine; answers come back in the same order. */
export type TranslateTexts = (items: TranslationItem[]) => Promise<TranslatedItem[]>;

/** An item cut into segments, with the language its text is in. */
export interface CutSource {
  cut: CutItem;
  source: string;
}

/** One item's translation. */
export interface TranslatedCut {
  text: string;
  /** Lowest confidence over the item's segments; null when the engine gave none. */
  confidence: number | null;
  /** Alternatives of an item that went to the engine as one segment; else empty. */
  alternatives: string[];
}

/** The translations, and how many segments needed the fallback. */
export interface SegmentsOutcome {
  items: TranslatedCut[];
  /** Segments sent to the engine (after merging identical ones). */
  sent: number;
  /** Segments whose answer was empty or lost placeholders, and were put back run by run. */
  fallbacks: number;
  /** Text runs whose fallback answer was empty too, kept in their source language. */
  keptAsWritten: number;
}

/** Options of {@link translateSegments}. */
export interface SegmentOptions {
  /** Translate identical segments of the request once (`webpage` mode). */
  once: boolean;
}

/**
 * Translates the segments of every item and assembles each item.
 *
 * @throws whatever `translate` throws (engine errors).
 */
export async function translateSegments(
  cuts: readonly CutSource[],
  translate: TranslateTexts,
  options: SegmentOptions,
): Promise<SegmentsOutcome> {
  const first = new Texts(options.once);
  const wanted = cuts.map(({ cut, source }, item) =>
    cut.segments.map((segment) =>
      segment.translatable
        ? first.add(segment.text, source, groupOf(cut, item), segment.escapedCharacters)
        : -1
    )
  );
  const answers = await first.send(translate);

  const fallback = new Texts(options.once);
  const broken = new Map<PlaceholderSegment, number[]>();
  // Each answer is checked once; the matched ones are rendered when their item is assembled.
  const matched = cuts.map(({ cut, source }, item) =>
    cut.segments.map((segment, index): MatchedTranslation | undefined => {
      const at = wanted[item][index];
      if (at === -1) return undefined;
      const answer = answers[at].text;
      const match = answer.trim() === "" ? undefined : segment.match(answer);
      if (!match) {
        const group = groupOf(cut, item);
        broken.set(segment, segment.runs.map((run) => fallback.add(run, source, group)));
      }
      return match;
    })
  );
  const runs = broken.size > 0 ? await fallback.send(translate) : [];
  let keptAsWritten = 0;
  const runText = (at: number, source: string) => {
    // A run holds no placeholder: any in its answer was invented, and would show as text.
    const text = withoutPlaceholders(runs[at].text);
    if (text.trim() !== "") return text;
    keptAsWritten++;
    return source;
  };

  const items = cuts.map(({ cut }, item) => {
    const rendered = cut.segments.map((segment, index): RenderedSegment => {
      const match = matched[item][index];
      const own = broken.get(segment);
      if (match) return (render) => segment.restoreMatched(match, render);
      if (own) {
        const texts = own.map((at, run) => runText(at, segment.runs[run]));
        return (render) => segment.fromRuns(texts, render);
      }
      return (render) => segment.fromRuns([], render);
    });
    const used = wanted[item].filter((at) => at !== -1).map((at) => answers[at]);
    const confidences = used.map((answer) => answer.confidence).filter((c) => c !== null);
    return {
      text: cut.assemble(rendered),
      confidence: confidences.length > 0 ? Math.min(...confidences) : null,
      alternatives: alternativesOf(cut, used),
    };
  });
  return { items, sent: first.size, fallbacks: broken.size, keptAsWritten };
}

/** The group of an item's segments: its own when it stands alone (a whole subtitle file). */
function groupOf(cut: CutItem, item: number): number | undefined {
  return cut.standalone ? item : undefined;
}

/** Alternatives make sense only for an item that is one segment; broken ones are dropped. */
function alternativesOf(cut: CutItem, used: TranslatedItem[]): string[] {
  if (cut.segments.length !== 1 || used.length !== 1) return [];
  const segment = cut.segments[0];
  return used[0].alternatives.flatMap((alternative) => {
    if (segment.restore(alternative) === undefined) return [];
    return [cut.assemble([(render) => segment.restore(alternative, render)!])];
  });
}

/** Texts to send, merged when identical and `once` is set. */
class Texts {
  readonly #items: TranslationItem[] = [];
  /** Index of each text sent, by source language then text (no key string to build). */
  readonly #seen = new Map<string, Map<string, number>>();
  constructor(readonly once: boolean) {}

  get size(): number {
    return this.#items.length;
  }

  /** Adds a text (and what its tokens escape); returns the index its answer will have. */
  add(
    text: string,
    source: string,
    group?: number,
    escapedCharacters?: TranslationItem["escapedCharacters"],
  ): number {
    const item: TranslationItem = { text, source };
    if (escapedCharacters) item.escapedCharacters = escapedCharacters;
    if (!this.once) return this.#items.push(group === undefined ? item : { ...item, group }) - 1;
    let seen = this.#seen.get(source);
    if (!seen) this.#seen.set(source, seen = new Map());
    const known = seen.get(text);
    if (known !== undefined) {
      const merged = this.#items[known];
      merged.occurrences = (merged.occurrences ?? 1) + 1;
      return known;
    }
    seen.set(text, this.#items.length);
    return this.#items.push(item) - 1;
  }

  send(translate: TranslateTexts): Promise<TranslatedItem[]> {
    return this.#items.length > 0 ? translate(this.#items) : Promise.resolve([]);
  }
}
