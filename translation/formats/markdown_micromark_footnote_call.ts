/**
 * micromark's GFM footnote call after an image start (`![^1]`), found in linear time. At each
 * `]` that closes no link, micromark-extension-gfm-footnote walks back over the paragraph's
 * events for an image start, up to a link, an image or a footnote call: with none, to the
 * paragraph's start. `]` × 8,000 in one item took 0.18 s (the service reads with micromark
 * where its own scanner declines), and JavaScript runs one request at a time. Here each walk
 * stops where the last one ended and takes what that one found; a link, image or footnote call
 * made since forgets it (their resolvers are the only ones that rewrite earlier events while a
 * paragraph is read). The rest is the extension's code as it is
 * (micromark-extension-gfm-footnote 2.1.0, `tokenizePotentialGfmFootnoteCall`, MIT), so the
 * events are the same (tests/translation/formats/markdown_micromark_pairing_test.ts compares
 * them with unpatched micromark).
 */
import { normalizeIdentifier } from "micromark-util-normalize-identifier";
import type {
  Code,
  Construct,
  Effects,
  Event,
  FullNormalizedExtension,
  State,
  Token,
  TokenizeContext,
} from "micromark-util-types";

/** What the last walk over a paragraph's events covered, and the image start it found. */
interface Walked {
  length: number;
  found: Token | undefined;
}

/** By the events of a paragraph being read (one array per paragraph, dropped with it). */
const walks = new WeakMap<Event[], Walked>();

/** Where micromark's walk stops: what an image start before it cannot open a call across. */
const WALK_STOPS = new Set(["gfmFootnoteCall", "labelLink", "label", "image", "link"]);

/**
 * Puts the linear footnote call in place of the extension's in one parser's constructs, and
 * has the link end and the call forget the walks of the events they rewrite.
 */
export function useLinearFootnoteCalls(constructs: FullNormalizedExtension): void {
  const closing = constructs.text[93]; // `]`
  if (!Array.isArray(closing)) throw new Error("micromark's `]` constructs were not found");
  let replaced = 0;
  constructs.text[93] = closing.map((construct): Construct => {
    if (construct.name === "gfmPotentialFootnoteCall") {
      replaced++;
      return { ...forgetting(construct), tokenize: tokenizePotentialCall };
    }
    if (construct.name === "labelEnd") {
      replaced++;
      return forgetting(construct);
    }
    return construct;
  });
  if (replaced !== 2) throw new Error("micromark's label end or footnote call was not found");
}

/** `construct` with a `resolveTo` that first forgets the walk over the events it rewrites. */
function forgetting(construct: Construct): Construct {
  const resolveTo = construct.resolveTo;
  if (!resolveTo) throw new Error(`micromark's ${construct.name} rewrites no events`);
  return {
    ...construct,
    resolveTo(events, context) {
      walks.delete(events);
      return resolveTo(events, context);
    },
  };
}

function tokenizePotentialCall(
  this: TokenizeContext,
  effects: Effects,
  ok: State,
  nok: State,
): State {
  const events = this.events;
  const defined = (this.parser as { gfmFootnotes?: string[] }).gfmFootnotes ??= [];
  const walked = walks.get(events);
  const bottom = walked && walked.length <= events.length ? walked.length : 0;
  let labelStart = bottom > 0 ? walked!.found : undefined;
  // Find an opening.
  for (let index = events.length - 1; index >= bottom; index--) {
    const token = events[index][1];
    if (token.type === "labelImage") {
      labelStart = token;
      break;
    }
    // Exit if we've walked far enough.
    if (WALK_STOPS.has(token.type)) {
      labelStart = undefined;
      break;
    }
  }
  walks.set(events, { length: events.length, found: labelStart });
  // An arrow function: `this` is the tokenizer's, as micromark's `self`.
  const start = (code: Code): State | undefined => {
    if (!labelStart || !labelStart._balanced) {
      return nok(code);
    }
    const id = normalizeIdentifier(this.sliceSerialize({
      start: labelStart.end,
      end: this.now(),
    }));
    if (id.codePointAt(0) !== 94 || !defined.includes(id.slice(1))) {
      return nok(code);
    }
    effects.enter("gfmFootnoteCallLabelMarker");
    effects.consume(code);
    effects.exit("gfmFootnoteCallLabelMarker");
    return ok(code);
  };
  return start;
}
