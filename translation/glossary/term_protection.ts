/**
 * Glossary terms through an engine that cannot be told about them (the built-in engine): each
 * term becomes a placeholder (translation/formats/placeholders.ts), and comes back as its
 * required form (the target term, or the source term kept). When the engine drops or moves a
 * placeholder, the text runs between the terms are translated one by one and the terms set
 * between them: the sentence may read less well, every term is there.
 */
import type { TranslatedItem, TranslationItem } from "../../engines/engine.ts";
import { placeholderSequence, withoutPlaceholders } from "../../engines/placeholder_tokens.ts";
import { atom, buildSegment, type Markup, type SegmentPart } from "../formats/placeholders.ts";
import { requiredForm } from "./term_check.ts";
import { type GlossaryTerm, SPACELESS_LANGUAGES, type TermMatch } from "./term_matcher.ts";

/** Sends texts to the engine; answers come back in the same order. */
export type TranslateTexts = (items: TranslationItem[]) => Promise<TranslatedItem[]>;

/** An item with the spans of its terms (offsets in its NFC text). */
export interface ProtectedItem {
  item: TranslationItem;
  matches: readonly TermMatch[];
}

const EDGES = /^([^\p{L}\p{N}]*)([\s\S]*?)([^\p{L}\p{N}]*)$/u;

/**
 * The target term for a place where the text wrote `written`: capitalised where the text
 * capitalised a term that the glossary and its target write in lower case (a sentence's first
 * word: "Database is open" → "Base de données est ouverte", not "base de données"). A target the
 * glossary capitalises, or a source it does ("API"), is taken as the glossary writes it.
 */
function casedTarget(term: GlossaryTerm, written: string): string {
  const target = requiredForm(term);
  const first = (text: string) => String.fromCodePoint(text.codePointAt(0) ?? 32);
  const upper = (char: string) => char !== char.toLowerCase() && char === char.toUpperCase();
  const lower = (char: string) => char !== char.toUpperCase() && char === char.toLowerCase();
  const capitalised = upper(first(withoutPlaceholders(written)));
  if (!capitalised || !lower(first(term.source)) || !lower(first(target))) return target;
  const head = first(target);
  return head.toUpperCase() + target.slice(head.length);
}

/**
 * A target term with the lone tokens its source words were wrapped over (a cue's line break, a
 * `<br>`: "translation<x1/>memory"): in the target's space nearest its middle, or, for a target
 * of one word, after it, or before it when the term ends the text. After it there, the break
 * would end the text with an empty line (which ends an SRT cue) or a dangling `<br>`.
 */
function withBreaks(target: string, tokens: string, endsText: boolean): string {
  const middle = target.length / 2;
  const distance = (found: RegExpExecArray) => Math.abs(found.index + found[0].length / 2 - middle);
  let gap: RegExpExecArray | undefined;
  for (const space of target.matchAll(/\s+/g)) {
    if (!gap || distance(space) < distance(gap)) gap = space;
  }
  if (gap) return target.slice(0, gap.index) + tokens + target.slice(gap.index + gap[0].length);
  return endsText ? tokens + target : target + tokens;
}

/**
 * A target term with the escape tokens of its source put back where the target has their
 * characters (Markdown's `max\_connections` → `max\_verbindungen`, not `max_verbindungen\_`:
 * the token stands for the character, and a bare `__` could start emphasis); the tokens it has
 * no place for are left for the caller, in order. Only when every token of the span is an escape.
 */
function escapedAgain(
  target: string,
  tokens: readonly string[],
  escaped: TranslationItem["escapedCharacters"],
): { target: string; tokens: string[] } {
  // Beside an element's tokens, a placed escape could change the tokens' order: left as is.
  if (!escaped || !tokens.every((token) => token in escaped)) {
    return { target, tokens: [...tokens] };
  }
  let out = "";
  let rest = target;
  const left: string[] = [];
  for (const token of tokens) {
    const characters = escaped[token];
    const at = characters === undefined ? -1 : rest.indexOf(characters);
    if (at === -1) {
      left.push(token);
      continue;
    }
    out += rest.slice(0, at) + token;
    rest = rest.slice(at + characters!.length);
  }
  return { target: out + rest, tokens: left };
}

function hasLetter(text: string): boolean {
  return /\p{L}/u.test(text);
}

/** Translates each item with its terms protected into `target`; answers in the same order. */
export async function translateProtected(
  items: readonly ProtectedItem[],
  target: string,
  translate: TranslateTexts,
): Promise<TranslatedItem[]> {
  const prepared = items.map(({ item, matches }) => {
    // The matches are at offsets of the text as written (attachTerms).
    const text = item.text;
    const byMarkup = new Map<string, GlossaryTerm>();
    const endsText = new Set<string>();
    const parts: SegmentPart[] = [];
    let at = 0;
    for (const match of matches) {
      if (match.start > at) parts.push(text.slice(at, match.start));
      const markup = text.slice(match.start, match.end);
      byMarkup.set(markup, match.term);
      if (text.slice(match.end).trim() === "") endsText.add(markup);
      parts.push(atom(markup));
      at = match.end;
    }
    if (at < text.length) parts.push(text.slice(at));
    // A term across markup ("<x1>New</x1> York", matched without its tokens) comes back as
    // its required form followed by those tokens, in order: no tag is dropped or reordered.
    // A do-not-translate term comes back as the text wrote it ("Tolk" opening a sentence,
    // "TOLK"), tags in place, not in the glossary's spelling.
    const render = (markup: Markup) => {
      const term = byMarkup.get(markup.markup);
      if (!term || term.target === "") return markup.markup;
      const { target, tokens } = escapedAgain(
        casedTarget(term, markup.markup),
        placeholderSequence(markup.markup),
        item.escapedCharacters,
      );
      return tokens.length > 0 && tokens.every((token) => token.endsWith("/>"))
        ? withBreaks(target, tokens.join(""), endsText.has(markup.markup))
        : target + tokens.join("");
    };
    return { item, segment: buildSegment(parts), render };
  });
  const sendable = prepared.filter((p) => p.segment.translatable);
  const answers = sendable.length
    ? await translate(sendable.map((p) => ({ text: p.segment.text, source: p.item.source })))
    : [];
  const restored = new Map<number, TranslatedItem>();
  const broken: number[] = [];
  sendable.forEach((p, i) => {
    const text = p.segment.restore(answers[i].text, p.render);
    if (text === undefined) broken.push(i);
    else restored.set(i, { ...answers[i], text, alternatives: [] });
  });
  if (broken.length > 0) {
    // Only runs with letters go to the engine, without the spaces and punctuation at their
    // edges, which stay as they were: the terms keep their separators.
    const runs = broken.flatMap((i) =>
      sendable[i].segment.runs.filter(hasLetter).map((run) => ({
        text: run.match(EDGES)![2],
        source: sendable[i].item.source,
      }))
    );
    const translatedRuns = runs.length ? await translate(runs) : [];
    let next = 0;
    for (const i of broken) {
      const { segment, item } = sendable[i];
      // From a language written without spaces into one written with them, the source has no
      // space between a term and its neighbours to keep: one is put there ("Tokyo of database",
      // not "Tokyoofdatabase"), except at the text's own start and end.
      const spaced = SPACELESS_LANGUAGES.has(item.source) && !SPACELESS_LANGUAGES.has(target);
      const own = segment.runs.map((run, r) => {
        if (!hasLetter(run)) return run;
        const [, lead, , trail] = run.match(EDGES)!;
        const first = r === 0 && segment.text.startsWith(run);
        const last = r === segment.runs.length - 1 && segment.text.endsWith(run);
        const space = (edge: string, outer: boolean) => spaced && !outer && !/\s/.test(edge);
        return (space(lead, first) ? " " : "") + lead + translatedRuns[next++].text.trim() +
          trail + (space(trail, last) ? " " : "");
      });
      const text = segment.fromRuns(own, sendable[i].render);
      restored.set(i, { text, confidence: answers[i].confidence, alternatives: [] });
    }
  }
  let sent = 0;
  return prepared.map((p) => {
    if (!p.segment.translatable) {
      return { text: p.segment.fromRuns([], p.render), confidence: null, alternatives: [] };
    }
    return restored.get(sent++)!;
  });
}
