/**
 * `format: "html"`: an HTML fragment or document, read by an HTML5 tokenizer with source
 * offsets into a flat sequence of tokens (text, tags, comments: html_tokens.ts).
 *
 * A block's run of text and inline tags is one segment, so inline elements stay inside their
 * sentence; block tags, never-translated elements and stray end tags of block elements
 * separate segments and are kept (a stray inline end tag stays in its sentence as a
 * placeholder). The output is the source with translated runs spliced in by offset: nothing is
 * re-serialised, so a malformed page keeps its shape. A `<wbr>` inside a word is no placeholder
 * (html_word_breaks.ts); interpolation variables (`{{ user.name }}`) are, as in `text`.
 *
 * Translated attributes (`alt`, `title`, `placeholder`, `aria-label`...: html_attributes.ts) are
 * segments of their own; a tag inside a sentence renders its translated attributes through the
 * placeholder's render hook, an embedding element (`select`, `video`...) its translated content.
 */
import { type CutItem, type Format, type Splice, spliceItem } from "./format.ts";
import { scannedTokens } from "./html_scanner.ts";
import { parse5Tokens } from "./html_tokenizer.ts";
import type { Token } from "./html_tokens.ts";
import {
  atom,
  buildSegment,
  close,
  isAddressOnly,
  type Markup,
  open,
  type PlaceholderSegment,
  protectSpans,
  type SegmentOptions,
  type SegmentPart,
  type SpanFinder,
} from "./placeholders.ts";
import { withoutOuterSpace } from "./placeholder_parts.ts";
import { spanFinder } from "./text.ts";
import { keepingReferences } from "./reference_spelling.ts";
import type { TextReading } from "./character_references.ts";
import { HTML_TEXT, type TextRules } from "./html_text_rules.ts";
import { withoutWordBreaks, withWordBreaks } from "./html_word_breaks.ts";
import { shortcodeSpans } from "./html_shortcodes.ts";
import { bothSpans } from "./variable_spans.ts";

/** HTML fragments and documents. */
export const htmlFormat: Format = {
  cut: (text, options) =>
    cutHtml(
      text,
      bothSpans(shortcodeSpans, spanFinder(options.mode)),
      htmlNames(options.tags?.ignore),
    ),
};

/**
 * Cuts an HTML item; `find` protects further spans of text (message mode); `ignored` names
 * (lower case) further elements kept whole, untranslated (the request's `ignore_tags`).
 */
export function cutHtml(
  source: string,
  find?: SpanFinder,
  ignored?: ReadonlySet<string>,
): CutItem {
  const tokens = scannedTokens(source, ignored) ?? parse5Tokens(source, ignored);
  return cutTokens(source, tokens, HTML_TEXT, find);
}

/** Element names as HTML compares them: in lower case (undefined when there are none). */
function htmlNames(names: ReadonlySet<string> | undefined): ReadonlySet<string> | undefined {
  return names?.size ? new Set([...names].map((name) => name.toLowerCase())) : undefined;
}

/**
 * Groups tokens into sentence segments and attribute segments, spliced back by offset (also the
 * cut of `format: "xml"`, whose tokens xml.ts reads).
 */
export function cutTokens(
  source: string,
  tokens: Token[],
  rules: TextRules,
  find?: SpanFinder,
): CutItem {
  const cut: Cut = {
    source,
    rules,
    sentence: { find, escape: rules.text.escape, decode: rules.text.decode },
    segments: [],
    tagOf: new Map(),
    ownSplices: new Map(),
  };
  const splices = cutLevel(cut, tokens);
  const { segments, tagOf, ownSplices } = cut;
  return {
    segments,
    assemble(translated) {
      // A segment is rendered after the ones its tags splice in (cutLevel pushes those first):
      // a tag inside a sentence renders with its translated attributes, an embedding element
      // with its translated content.
      const outputs: string[] = [];
      const render = tagOf.size === 0 ? undefined : (markup: Markup) => {
        const token = tagOf.get(markup);
        if (!token) return markup.markup;
        const own = ownSplices.get(token)!.map((splice) => ({
          ...splice,
          start: splice.start - token.start,
          end: splice.end - token.start,
        }));
        return spliceItem(markup.markup, own, outputs);
      };
      for (const segment of translated) outputs.push(segment(render));
      return spliceItem(source, splices, outputs);
    },
  };
}

/** What the cut of one item builds up, level by level (embedding elements hold a level). */
interface Cut {
  source: string;
  rules: TextRules;
  /** A sentence's segment options (its escape keeps the author's references: cutLevel). */
  sentence: SegmentOptions;
  segments: PlaceholderSegment[];
  /** Tags inside a sentence segment, rendered with their own splices. */
  tagOf: Map<Markup, Token>;
  /** Each token's splices inside it: its translated attributes, an embedding element's content. */
  ownSplices: Map<Token, Splice[]>;
}

/**
 * Cuts one level of tokens into segments; returns its splices, in source order. A token's own
 * segments (attributes, the sentences of an embedding element's content) are pushed before the
 * sentence that may hold the token.
 */
function cutLevel(cut: Cut, tokens: readonly Token[]): Splice[] {
  const { source, rules, segments, tagOf, ownSplices } = cut;
  const splices: Splice[] = [];
  /** The tokens with splices of their own, in order (a Map's entries cost an array each). */
  const owning: Token[] = [];
  for (const token of tokens) {
    if (!token.attributes && !token.inner) continue;
    owning.push(token);
    const own: Splice[] = [];
    for (const [start, end] of token.attributes ?? []) {
      own.push({
        start,
        end,
        segment: segments.push(attributeSegment(source, start, end, rules, cut.sentence.find)) - 1,
      });
    }
    if (token.inner) own.push(...cutLevel(levelCut(cut, token), token.inner));
    ownSplices.set(token, own);
  }
  const insideSentences = new Set<Token>();
  const groups = sentenceGroups(tokens);
  for (let group = 0; group < groups.length; group += 2) {
    const head = groups[group];
    const tail = groups[group + 1];
    // Most sentences are one text token: their parts need no array grown by `push`.
    const parts: SegmentPart[] = head === tail
      ? textParts(source.slice(tokens[head].start, tokens[head].end), rules.text)
      : [];
    for (let index = head; index <= tail && head !== tail; index++) {
      const token = tokens[index];
      const written = source.slice(token.start, token.end);
      if (token.kind === "text") {
        // Text that is one address (a link's text that is its URL) is kept inside the sentence,
        // also when written with references (`info&#64;example.com`, hidden from harvesters).
        if (!written.includes("&")) parts.push(isAddressOnly(written) ? atom(written) : written);
        else if (isAddressOnly(rules.text.decode(written))) parts.push(atom(written));
        else parts.push(...textParts(written, rules.text));
        continue;
      }
      const markup = token.kind === "open"
        ? open(written, token.name!)
        : token.kind === "close"
        ? close(written, token.name ?? `unpaired-${token.start}`)
        : atom(written);
      if (ownSplices.has(token)) {
        tagOf.set(markup, token);
        insideSentences.add(token);
      }
      parts.push(markup);
    }
    const { inner, before, after } = withoutOuterSpace(parts, rules.text.isSpace);
    const { parts: words, breaks } = withoutWordBreaks(inner);
    // A changed run keeps the author's references for the characters it keeps.
    const escape = keepingReferences(
      rules.text.escape,
      words.filter((part) => typeof part === "string"),
      rules.text.decode,
      { backslash: false },
    );
    const built = buildSegment(words, { ...cut.sentence, escape });
    const segment = segments.push(withWordBreaks(built, breaks, inner)) - 1;
    splices.push({ start: tokens[head].start + before, end: tokens[tail].end - after, segment });
  }
  for (const token of owning) {
    if (!insideSentences.has(token)) splices.push(...ownSplices.get(token)!);
  }
  return splices.sort((a, b) => a.start - b.start);
}

/** The cut of a token's inner level: with the rules its level is read with. */
function levelCut(cut: Cut, token: Token): Cut {
  const rules = cut.rules.level?.(token);
  if (rules === undefined) return cut;
  const { escape, decode } = rules.text;
  return { ...cut, rules, sentence: { ...cut.sentence, escape, decode } };
}

/**
 * The segment of an attribute's value at [start, end) of `source`, read in its quoting; `find`
 * protects spans of it as in a sentence (a `placeholder="Search {count} items"`).
 */
export function attributeSegment(
  source: string,
  start: number,
  end: number,
  rules: TextRules,
  find?: SpanFinder,
): PlaceholderSegment {
  const reading = rules.attribute(source[start - 1]);
  const parts = textParts(source.slice(start, end), reading);
  // As in a sentence: a changed value keeps the author's references (`Caf&eacute; &amp; bar`).
  const escape = keepingReferences(
    reading.escape,
    parts.filter((part) => typeof part === "string"),
    reading.decode,
    { backslash: false },
  );
  return buildSegment(parts, { ...reading, escape, find });
}

/** Text with the references that are not read as text as atoms (character_references.ts). */
function textParts(text: string, reading: TextReading): SegmentPart[] {
  return text.includes("&") ? protectSpans(text, reading.atoms) : [text];
}

/**
 * Runs of adjacent text and inline tokens holding a letter, trimmed of what need not go to the
 * engine: outer atoms, blank text, an element wrapping the whole run, a stray close or open, an
 * open whose close or a close whose open is outside the run (an element running over a
 * sentence break). Each run is [first, last] indexes of `tokens` (no array per run).
 */
function sentenceGroups(tokens: readonly Token[]): number[] {
  const groups: number[] = [];
  let partners: Int32Array | undefined;
  /** Whether the open or close at `index` has its partner among tokens `from` to `to`. */
  const partnerWithin = (index: number, from: number, to: number) => {
    if (to - from < SHORT_RUN) {
      const { kind, name } = tokens[index];
      const partner = kind === "open" ? "close" : "open";
      for (let at = from; at <= to; at++) {
        if (tokens[at].kind === partner && tokens[at].name === name) return true;
      }
      return false;
    }
    const partner = (partners ??= partnerIndexes(tokens))[index];
    return partner >= from && partner <= to;
  };
  let first = 0;
  const flush = (end: number) => {
    let head = first;
    let tail = end - 1;
    for (let changed = true; changed && head <= tail;) {
      changed = false;
      const start = tokens[head];
      const last = tokens[tail];
      if (start.kind === "atom" || start.kind === "close" || isBlank(start)) {
        head++;
        changed = true;
      } else if (last.kind === "atom" || last.kind === "open" || isBlank(last)) {
        tail--;
        changed = true;
      } else if (start.kind === "open" && !partnerWithin(head, head + 1, tail)) {
        head++;
        changed = true;
      } else if (last.kind === "close" && !partnerWithin(tail, head, tail - 1)) {
        tail--;
        changed = true;
      } else if (
        start.kind === "open" && last.kind === "close" && start.name === last.name && head < tail
      ) {
        head++;
        tail--;
        changed = true;
      }
    }
    for (let index = head; index <= tail; index++) {
      if (tokens[index].kind === "text") {
        groups.push(head, tail);
        break;
      }
    }
  };
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token.kind === "break" || (index > first && tokens[index - 1].end !== token.start)) {
      flush(index);
      first = token.kind === "break" ? index + 1 : index;
    }
  }
  flush(tokens.length);
  return groups;
}

/**
 * Runs of fewer tokens are looked along for a partner; longer ones use {@link partnerIndexes}
 * (most runs are short, and the table costs a Map and an array per item).
 */
const SHORT_RUN = 32;

/**
 * For each open and close token, the index of its partner (-1: none). Pairs are named by the
 * open's offset (html_tokens.ts, xml.ts), so a name belongs to one open and at most one close.
 * Built once per item: looking along the run for the partner, peeling nested wrappers one by one
 * (`<i><i>…x…</i></i>`) read the run again at every step, and 64,000 characters of them took
 * 350 ms.
 */
function partnerIndexes(tokens: readonly Token[]): Int32Array {
  const partners = new Int32Array(tokens.length).fill(-1);
  const opens = new Map<string, number>();
  for (let index = 0; index < tokens.length; index++) {
    const { kind, name } = tokens[index];
    if (name === undefined) continue;
    if (kind === "open") opens.set(name, index);
    else if (kind === "close") {
      const open = opens.get(name);
      if (open === undefined) continue;
      partners[open] = index;
      partners[index] = open;
    }
  }
  return partners;
}

function isBlank(token: Token): boolean {
  return token.kind === "text" && token.blank === true;
}
