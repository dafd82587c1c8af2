/**
 * micromark's pairing of emphasis (`*`, `_`) and GFM strikethrough (`~`) delimiters, in linear
 * time. micromark's own resolvers walk back over every earlier event for each delimiter that may
 * close, to the start of the paragraph when nothing pairs with it: `a*_` repeated over an
 * 8,000-code-point item took 1.1 s, and JavaScript runs one request at a time. Here each kind of
 * closer remembers where its last walk found nothing (the `openers_bottom` of cmark's fix for the
 * same problem) and the next walk stops there; everything else is micromark's code as it is
 * (micromark-core-commonmark 2.0.4 `attention.js`, micromark-extension-gfm-strikethrough 2.1.0,
 * MIT), so the events are the same (tests/translation/formats/markdown_micromark_pairing_test.ts
 * compares them with unpatched micromark).
 *
 * Why a walk may stop: whether an earlier sequence can open for a closer depends only on the
 * sequence and on the closer's marker, whether it may open too, and its size modulo 3 (the rule
 * of three), or for strikethrough its size. A pairing rewrites the events from its opener on and
 * may shrink that opener, so every stop at or above it moves below it.
 */
import { splice } from "micromark-util-chunked";
import { resolveAll } from "micromark-util-resolve-all";
import type {
  Construct,
  Event,
  FullNormalizedExtension,
  Point,
  Resolver,
  Token,
  TokenizeContext,
} from "micromark-util-types";

/**
 * Puts the linear resolvers in place of micromark's in one parser's constructs (`parse()` builds
 * them per parser: the module's own constructs and other parsers are left alone).
 */
export function useLinearPairing(constructs: FullNormalizedExtension): void {
  const replacements = new Map<Resolved, Resolved>();
  const replace = <T extends Resolved>(construct: T): T => {
    const resolver = RESOLVERS[construct.name ?? ""];
    if (!resolver) return construct;
    if (!replacements.has(construct)) {
      replacements.set(construct, { ...construct, resolveAll: resolver });
    }
    return replacements.get(construct) as T;
  };
  for (const [code, listed] of Object.entries(constructs.text)) {
    if (!listed) continue;
    constructs.text[code] = Array.isArray(listed) ? listed.map(replace) : replace(listed);
  }
  constructs.insideSpan.null = constructs.insideSpan.null?.map(replace);
  if (replacements.size !== Object.keys(RESOLVERS).length) {
    throw new Error("micromark's attention or strikethrough construct was not found");
  }
}

/** What a construct list may hold: constructs, and bare resolvers (`insideSpan`). */
type Resolved = Pick<Construct, "resolveAll"> & { name?: string };

/**
 * The walk both resolvers share: each sequence of `type` that may close, in order, pairs with the
 * nearest earlier one that may open and `fits` it (`pair` rewrites the events and says where the
 * walk goes on); the walk back for a closer stops where the last one of the same `kind` found
 * nothing. Sequences left are data.
 */
function pairSequences(
  events: Event[],
  type: string,
  rules: {
    kind: (closer: Token) => number;
    fits: (opener: Token, closer: Token) => boolean;
    pair: (open: number, index: number) => number;
  },
): Event[] {
  /** Per kind of closer, the index at and below which no opener fits one. */
  const stops = new Map<number, number>();
  let index = -1;
  while (++index < events.length) {
    const closer = events[index][1];
    if (events[index][0] !== "enter" || closer.type !== type || !closer._close) continue;
    const kind = rules.kind(closer);
    let open = index;
    let paired = false;
    for (const stop = stops.get(kind) ?? -1; --open > stop;) {
      const opener = events[open][1];
      if (events[open][0] !== "exit" || opener.type !== type || !opener._open) continue;
      if (!rules.fits(opener, closer)) continue;
      index = rules.pair(open, index);
      // The events from the opener on were rewritten, and the opener may be shorter now.
      for (const [other, at] of stops) if (at >= open - 1) stops.set(other, open - 2);
      paired = true;
      break;
    }
    if (!paired) stops.set(kind, index);
  }
  for (const [, token] of events) {
    if (token.type === type) token.type = "data" as Token["type"];
  }
  return events;
}

/**
 * micromark's `resolveAllAttention`, with the walk back stopped where the last walk for the same
 * kind of closer found nothing, and each sequence's marker read once.
 */
function pairAttentionSequences(events: Event[], context: TokenizeContext): Event[] {
  const markers = new Map<Token, number>();
  const markerOf = (token: Token) => {
    let marker = markers.get(token);
    if (marker === undefined) {
      marker = context.sliceSerialize(token).charCodeAt(0);
      markers.set(token, marker);
    }
    return marker;
  };
  return pairSequences(events, "attentionSequence", {
    kind: (closer) => markerOf(closer) * 8 + (closer._open ? 4 : 0) + length(closer) % 3,
    fits: (opener, closer) => {
      if (markerOf(opener) !== markerOf(closer)) return false;
      // If the opening can close or the closing can open, and the close size is not a multiple
      // of three, but the sum of the opening and closing size is a multiple of three: no match.
      const closeSize = length(closer);
      return !((opener._close || closer._open) && closeSize % 3 &&
        !((length(opener) + closeSize) % 3));
    },
    pair: (open, index) => pairAttention(events, context, open, index),
  });
}

function length(token: Token): number {
  return token.end.offset - token.start.offset;
}

/** micromark's emphasis or strong from the opener exiting at `open` to the closer entering at
 * `index`; returns where the walk through the events goes on. */
function pairAttention(
  events: Event[],
  context: TokenizeContext,
  open: number,
  index: number,
): number {
  const opener = events[open][1];
  const closer = events[index][1];
  // Number of markers to use from the sequence.
  const use = length(opener) > 1 && length(closer) > 1 ? 2 : 1;
  const start = { ...opener.end };
  const end = { ...closer.start };
  movePoint(start, -use);
  movePoint(end, use);
  const sequence = use > 1 ? "strongSequence" : "emphasisSequence";
  const openingSequence = token(sequence, start, opener.end);
  const closingSequence = token(sequence, closer.start, end);
  const text = token(use > 1 ? "strongText" : "emphasisText", opener.end, closer.start);
  const group = token(use > 1 ? "strong" : "emphasis", openingSequence.start, closingSequence.end);
  opener.end = { ...openingSequence.start };
  closer.start = { ...closingSequence.end };
  const next: Event[] = [];
  // If there are more markers in the opening, add them before.
  if (length(opener)) {
    next.push(["enter", opener, context], ["exit", opener, context]);
  }
  const between = spanEvents(events, context, open, index);
  appendAll(next, groupEvents(context, group, openingSequence, text, between, closingSequence));
  let offset = 0;
  // If there are more markers in the closing, add them after.
  if (length(closer)) {
    offset = 2;
    next.push(["enter", closer, context], ["exit", closer, context]);
  }
  splice(events, open - 1, index - open + 3, next);
  return open + next.length - offset - 2;
}

/**
 * micromark-extension-gfm-strikethrough's `resolveAllStrikethrough`, with the walk back stopped
 * where the last walk for a closer of the same size found nothing.
 */
function pairStrikethroughSequences(events: Event[], context: TokenizeContext): Event[] {
  return pairSequences(events, "strikethroughSequenceTemporary", {
    kind: length,
    fits: (opener, closer) => length(opener) === length(closer),
    pair: (open, index) => pairStrikethrough(events, context, open, index),
  });
}

/** GFM's strikethrough from the opener exiting at `open` to the closer entering at `index`. */
function pairStrikethrough(
  events: Event[],
  context: TokenizeContext,
  open: number,
  index: number,
): number {
  const opener = events[open][1];
  const closer = events[index][1];
  closer.type = "strikethroughSequence" as Token["type"];
  opener.type = "strikethroughSequence" as Token["type"];
  const strikethrough = token("strikethrough", opener.start, closer.end);
  const text = token("strikethroughText", opener.end, closer.start);
  const between = spanEvents(events, context, open, index);
  const next = groupEvents(context, strikethrough, opener, text, between, closer);
  splice(events, open - 1, index - open + 3, next);
  return open + next.length - 2;
}

/** The events between the opener exiting at `open` and the closer entering at `index`, resolved
 * alone by the constructs that resolve inside a span (micromark's `insideSpan`). */
function spanEvents(events: Event[], context: TokenizeContext, open: number, index: number) {
  const inside = events.slice(open + 1, index);
  const resolvers = context.parser.constructs.insideSpan.null;
  return resolvers ? resolveAll(resolvers, inside, context) : inside;
}

/** The events of `group`: its opening sequence, its `text` around `between`, its closing one. */
function groupEvents(
  context: TokenizeContext,
  group: Token,
  opening: Token,
  text: Token,
  between: readonly Event[],
  closing: Token,
): Event[] {
  const events: Event[] = [
    ["enter", group, context],
    ["enter", opening, context],
    ["exit", opening, context],
    ["enter", text, context],
  ];
  appendAll(events, between);
  events.push(
    ["exit", text, context],
    ["enter", closing, context],
    ["exit", closing, context],
    ["exit", group, context],
  );
  return events;
}

/** A token of `type` over copies of two points (micromark's tokens never share a point). */
function token(type: string, start: Point, end: Point): Token {
  return { type: type as Token["type"], start: { ...start }, end: { ...end } };
}

/** The constructs whose resolver is replaced, by name, and their replacements. */
const RESOLVERS: Readonly<Record<string, Resolver>> = {
  attention: pairAttentionSequences,
  strikethrough: pairStrikethroughSequences,
};

/** Appends without spreading into arguments (no call-stack limit on long runs). */
function appendAll(list: Event[], items: readonly Event[]): void {
  for (const item of items) list.push(item);
}

/** micromark's `movePoint`: moves a point within its line. */
function movePoint(point: Point, offset: number): void {
  point.column += offset;
  point.offset += offset;
  point._bufferIndex += offset;
}
