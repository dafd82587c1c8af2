/**
 * The cut's tokens of an HTML item, built straight from the tags of an HTML5 tokenizer: the fast
 * scanner (html_scanner.ts) where it reads the item as parse5 would, else parse5's own
 * (html_tokenizer.ts).
 *
 * The cut needs little of a DOM: which element holds which text, and where each tag is. The
 * tokenizer reads the source the HTML5 way (tags, attributes with their offsets, comments,
 * entities, raw text in `script` and `style`, CDATA in SVG and MathML); only the open elements
 * are kept here, with HTML5's rules for where one ends without its end tag (html_nesting.ts),
 * and each tag, text run and comment becomes its token as it comes. Why no element tree: the
 * tree, then a walk over it, were a third of the HTML cut inside a request (an object, a range
 * and a children array per element, then a token per node).
 */
import { openAfter, pInScope, TEXT_MODES, type TextMode } from "./html_nesting.ts";
import { attributeValues, type HtmlAttribute } from "./html_attributes.ts";
import { keepReopened } from "./html_reopened.ts";
import {
  BREAKS_SENTENCE,
  ELEMENT_BITS,
  FORMATTING_ELEMENTS,
  HAS_TEXT_MODE,
  IS_EMBEDDING,
  IS_FOREIGN,
  IS_NEVER_TRANSLATED,
  IS_VOID,
  isIconFont,
  MAY_CLOSE,
  NEVER_TRANSLATED,
  refusedByClass,
  SENTENCE_BREAKING,
} from "./html_elements.ts";

export type { TextMode } from "./html_nesting.ts";

/** A piece of the source: text, a tag, a comment, or a range kept as it is. */
export interface Token {
  start: number;
  end: number;
  /**
   * `text` to translate; `open`/`close` an inline element's tags inside a sentence; `atom` kept
   * whole inside a sentence; `break` kept as it is between sentences.
   */
  kind: "text" | "open" | "close" | "atom" | "break";
  /** Pairs a start tag with its end tag: the start tag's offset. */
  name: string | undefined;
  /** [start, end) of the values of translated attributes (none when undefined). */
  attributes: [number, number][] | undefined;
  /** A text token holding only white space. */
  blank: boolean;
  /**
   * The tokens of an embedding element's content (html_elements.ts' `EMBEDDING`), cut into
   * sentences of their own: the token is the whole element, one atom of the sentence around it.
   */
  inner: Token[] | undefined;
}

/** A start tag as a tokenizer read it. */
export interface StartTag {
  /** Lower case. */
  name: string;
  /**
   * The attributes whose values are translated (html_attributes.ts), in source
   * order; a repeated name is left out, as HTML5 says.
   */
  attributes: readonly HtmlAttribute[];
  /** The value of `translate`, entities decoded; undefined without one. */
  translate: string | undefined;
  /** The value of `class`, entities decoded; undefined without one. */
  classes: string | undefined;
  /** The value of `type`, entities decoded; undefined without one (an input's kind). */
  type: string | undefined;
  /** Written `<x/>` (closes a foreign element). */
  selfClosing: boolean;
  start: number;
  end: number;
}

/** `<meta name="google" content="notranslate">` (Chrome reads `value` too), in any case. */
const GOOGLE_NAME = /\sname\s*=\s*(["']?)google\1(?=[\s/>])/i;
const NOTRANSLATE_VALUE = /\s(?:content|value)\s*=\s*(["']?)notranslate\1(?=[\s/>])/i;

/**
 * Whether [start, end) of `source` holds only white space (what `\s` matches). A loop, not a
 * regular expression: text runs mostly start with a letter, and a call into the expression
 * engine per text run cost 5-7% of the HTML cut inside requests.
 */
export function isBlank(source: string, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const unit = source.charCodeAt(at);
    if (unit === 0x20 || (unit >= 0x09 && unit <= 0x0d)) continue;
    if (unit < 0xa0) return false;
    if (
      unit === 0xa0 || unit === 0x1680 || (unit >= 0x2000 && unit <= 0x200a) || unit === 0x2028 ||
      unit === 0x2029 || unit === 0x202f || unit === 0x205f || unit === 0x3000 || unit === 0xfeff
    ) continue;
    return false;
  }
  return true;
}

/**
 * Builds the tokens from the tags of a reader (html_scanner.ts, or parse5's tokenizer in
 * html_tokenizer.ts), in source order. The open elements are kept in parallel arrays (index 0
 * is the item itself): no object per element.
 */
export class TokenBuilder {
  readonly tokens: Token[] = [];
  readonly #names: string[] = ["#root"];
  /** Where the `<p>` a block would close is, as seen from each open element (html_nesting.ts). */
  readonly #p: number[] = [-1];
  /**
   * Names an end tag found no open element for, until one opens: the next such end tag is known
   * to close nothing without a walk down the open elements (stray end tags under deep nesting
   * took the square of it). Empty in most items, so that an element's start pays one test.
   */
  readonly #notOpen = new Set<string>();
  readonly #starts: number[] = [0];
  /** The element's content is translated. */
  readonly #inner: boolean[] = [true];
  readonly #inline: boolean[] = [false];
  /**
   * The element's content is not translated but stays in the sentence around it, as atoms: a
   * refused inline element inside translated text (`Use <span translate="no">Brand <b
   * translate="yes">Pro</b></span> today.` is one sentence, not three pieces of one).
   */
  readonly #held: boolean[] = [false];
  /**
   * Where the element's tokens start when it is to be kept whole (never translated, or refused
   * inside a translated one), else -1: its content is read as any other, then replaced by one
   * token when it closes. A refused one is not kept whole once an element inside says
   * `translate=yes`.
   */
  readonly #keeps: number[] = [-1];
  /**
   * Where an embedding element's tokens start (its start tag), else -1: they become the
   * {@link Token.inner} of one atom when it closes.
   */
  readonly #embeds: number[] = [-1];
  /** The {@link #keeps} of icon-font elements: never translated, as `code`, whatever the name. */
  #iconKeeps: Set<number> | undefined;
  /** Elements inside `svg` or `math` are foreign: no raw text, `/>` closes them. */
  #foreign = 0;
  /**
   * An element not translated was closed before its end tag: a browser may put later text back
   * inside it (html_reopened.ts): where the first such ends, else -1.
   */
  #closedUntranslated = -1;
  /** The page says `<meta name="google" content="notranslate">`. */
  #pageRefused = false;
  /** The last text token: text right after it, in the same element, continues it. */
  #lastText: Token | undefined;

  /**
   * @param ignored names (lower case) of further elements kept whole, as never-translated ones
   * are (the request's `ignore_tags`).
   */
  constructor(readonly source: string, readonly ignored?: ReadonlySet<string>) {}

  /** Inside `svg` or `math` (where parse5 reads CDATA sections). */
  get inForeign(): boolean {
    return this.#foreign > 0;
  }

  /** Text from `start` to `end`; text next to text is one token. */
  text(start: number, end: number): void {
    const blank = isBlank(this.source, start, end);
    const tokens = this.tokens;
    const last = tokens[tokens.length - 1];
    if (last !== undefined && last === this.#lastText && last.end === start) {
      last.end = end;
      last.blank &&= blank;
    } else {
      const kind = this.#inner.at(-1)! ? "text" : this.#held.at(-1)! ? "atom" : "break";
      this.#lastText = token(start, end, kind, blank);
      tokens.push(this.#lastText);
    }
  }

  /** A comment (kept whole inside a sentence) or a doctype. */
  leaf(kind: "comment" | "doctype", start: number, end: number): void {
    this.tokens.push(token(start, end, kind === "comment" ? "atom" : "break"));
  }

  /**
   * A start tag; returns how the reader must read the element's content when not as markup
   * (the raw text of `script`, `style`, `textarea`...).
   */
  startTag(tag: StartTag): TextMode | undefined {
    const { name, start, end, classes } = tag;
    if (name === "meta" && !this.#pageRefused) {
      this.#pageRefused = saysNoTranslate(tag, this.source);
    }
    const bits = ELEMENT_BITS.get(name) ?? 0;
    if (this.#foreign === 0 && (bits & MAY_CLOSE) !== 0) {
      this.#closeTo(openAfter(this.#names, this.#p, name), start, true);
    }
    const says = tag.translate?.toLowerCase();
    if (says === "yes") this.#yesInside();
    const translating = this.#inner.at(-1)!;
    const refused = says === "no" || refusedByClass(classes);
    const inline = (bits & BREAKS_SENTENCE) === 0;
    const inner = says === "yes" || (translating && !refused);
    const icon = isIconFont(classes);
    const keep = (bits & IS_NEVER_TRANSLATED) !== 0 || icon || this.ignored?.has(name) ||
        (translating && refused)
      ? this.tokens.length
      : -1;
    if (icon && keep !== -1) (this.#iconKeeps ??= new Set()).add(keep);
    const held = inline && !inner && (translating ? refused : this.#held.at(-1)!);
    const kind = held
      ? "atom"
      : !inner || !inline
      ? "break"
      : (bits & IS_VOID) !== 0
      ? "atom"
      : "open";
    const embed = kind === "open" && (bits & IS_EMBEDDING) !== 0 ? this.tokens.length : -1;
    // Only an open tag is paired (with its close, by its offset).
    const startToken = token(start, end, kind, false, kind === "open" ? String(start) : undefined);
    // An ignored element's attributes are kept as written, as its content is.
    if (inner && !this.ignored?.has(name)) {
      startToken.attributes = attributeValues(tag, this.source);
    }
    this.tokens.push(startToken);
    const isForeign = this.#foreign > 0 || (bits & IS_FOREIGN) !== 0;
    if (isForeign ? tag.selfClosing : (bits & IS_VOID) !== 0) {
      if (keep !== -1) this.#keptWhole(keep, start, end, inline);
      return undefined;
    }
    this.#p.push(pInScope(this.#p[this.#p.length - 1], name, this.#names.length));
    if (this.#notOpen.size !== 0) this.#notOpen.delete(name);
    this.#names.push(name);
    this.#starts.push(start);
    this.#inner.push(inner);
    this.#held.push(held);
    this.#inline.push(inline);
    this.#keeps.push(keep);
    this.#embeds.push(embed);
    if (isForeign) this.#foreign++;
    else if ((bits & HAS_TEXT_MODE) !== 0) return TEXT_MODES.get(name);
    return undefined;
  }

  /** An end tag: closes its element and the ones inside it, or is stray. */
  endTag(name: string, start: number, end: number): void {
    const index = this.#notOpen.has(name) ? -1 : this.#names.lastIndexOf(name);
    if (index < 1) {
      this.#notOpen.add(name);
      // An end tag that closes nothing: inside a sentence when it is an inline element's.
      const inside = (this.#inner.at(-1)! || this.#held.at(-1)!) && !SENTENCE_BREAKING.has(name);
      this.tokens.push(token(start, end, inside ? "atom" : "break"));
      return;
    }
    // Closing elements inside an untranslated one early: a browser may ignore this end tag
    // (`</svg>` past the svg's `title`) and keep what follows inside it.
    if (
      this.#closedUntranslated === -1 && index + 1 < this.#names.length &&
      (this.#keeps[index] !== -1 || !this.#inner[index])
    ) this.#closedUntranslated = start;
    this.#closeTo(index + 1, start, true);
    const inside = this.#inner[index] && this.#inline[index];
    const pair = inside ? String(this.#starts[index]) : undefined;
    const kind = inside ? "close" : this.#held[index] ? "atom" : "break";
    this.tokens.push(token(start, end, kind, false, pair));
    this.#closeTo(index, end);
  }

  /**
   * The end of the item: what is still open ends there. Returns the tokens: one kept whole
   * when the page refuses translation.
   */
  finish(): Token[] {
    this.#closeTo(1, this.source.length);
    if (this.#pageRefused) return [token(0, this.source.length, "break")];
    if (this.#closedUntranslated !== -1) {
      keepReopened(this.source, this.tokens, this.#closedUntranslated, this.ignored);
    }
    return this.tokens;
  }

  /**
   * Closes the open elements past the first `count`, at `end`; `early`: before their end tags
   * (not at the end of the item).
   */
  #closeTo(count: number, end: number, early = false): void {
    while (this.#names.length > count) {
      const name = this.#names.pop()!;
      this.#p.pop();
      const start = this.#starts.pop()!;
      const inner = this.#inner.pop()!;
      this.#held.pop();
      const inline = this.#inline.pop()!;
      const keep = this.#keeps.pop()!;
      const embed = this.#embeds.pop()!;
      // Only a formatting element is reopened, or foreign content kept: an `rt` or `li` closed by
      // the next one takes nothing back (a legacy ruby page built the tree for nothing).
      if (
        early && this.#closedUntranslated === -1 && (keep !== -1 || !inner) &&
        (this.#foreign > 0 || FORMATTING_ELEMENTS.has(name))
      ) {
        this.#closedUntranslated = end;
      }
      if (this.#foreign > 0) this.#foreign--;
      if (keep !== -1) this.#keptWhole(keep, start, end, inline);
      else if (embed !== -1) this.#embedded(embed, start, end);
    }
  }

  /**
   * An embedding element ends at `end`: its tokens from `at` (its start tag) on become one atom
   * of the sentence around it, holding its start tag's translated attributes and its content's
   * tokens as {@link Token.inner}.
   */
  #embedded(at: number, start: number, end: number): void {
    const tokens = this.tokens;
    const attributes = tokens[at].attributes;
    const inner = tokens.slice(at + 1);
    const last = inner[inner.length - 1];
    // Its own end tag separates its sentences, as any block's does.
    if (last?.kind === "close" && last.name === String(start)) last.kind = "break";
    tokens.length = at;
    const whole = token(start, end, "atom");
    whole.attributes = attributes;
    whole.inner = inner;
    tokens.push(whole);
  }

  /**
   * Refused elements holding one that says `translate=yes` are read, not kept whole (never
   * translated and ignored ones stay whole).
   */
  #yesInside(): void {
    const keeps = this.#keeps;
    for (let index = 1; index < keeps.length; index++) {
      const name = this.#names[index];
      if (
        keeps[index] !== -1 && !NEVER_TRANSLATED.has(name) && !this.ignored?.has(name) &&
        !this.#iconKeeps?.has(keeps[index])
      ) {
        keeps[index] = -1;
      }
    }
  }

  /**
   * An element kept whole ends at `end`: its tokens from `keep` on become one, inside a
   * sentence when it is inline, separating sentences when not. Its start tag's translated
   * attributes stay translated: `code`, `textarea` or `svg` keep their content, but a
   * `placeholder`, `title` or `aria-label` on them is text a reader sees (a refused element's
   * start tag has none).
   */
  #keptWhole(keep: number, start: number, end: number, inline: boolean): void {
    const attributes = this.tokens[keep].attributes;
    this.#iconKeeps?.delete(keep);
    this.tokens.length = keep;
    const whole = token(start, end, inline ? "atom" : "break");
    whole.attributes = attributes;
    this.tokens.push(whole);
  }
}

/**
 * A token of the same shape for every kind, so the loops over tokens stay monomorphic (xml.ts
 * makes its tokens with it too).
 */
export function token(
  start: number,
  end: number,
  kind: Token["kind"],
  blank = false,
  name: string | undefined = undefined,
): Token {
  return { start, end, kind, name, attributes: undefined, blank, inner: undefined };
}

/**
 * Whether a `meta` says the whole page is not to be translated, as Google Translate and Chrome
 * read `<meta name="google" content="notranslate">`: the item is then kept byte for byte, as
 * one whose `html` says `translate="no"` (the tag's own text is read: the readers keep only the
 * attributes the cut translates, and a page has a few `meta`s).
 */
function saysNoTranslate(tag: StartTag, source: string): boolean {
  const written = source.slice(tag.start, tag.end);
  return GOOGLE_NAME.test(written) && NOTRANSLATE_VALUE.test(written);
}
