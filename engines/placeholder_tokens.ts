/**
 * The placeholder tokens engines receive in place of inline markup and protected spans:
 * `<x1>…</x1>` around an inline element's content, `<x2/>` for anything kept whole (a tag with
 * no partner in the segment, a URL in a message, an entity). Numbers count from 1 per segment.
 *
 * Engines never see formats, only these tokens, and every engine is held to one rule: each
 * token of the source comes back exactly once and in the same order (so nesting is the
 * source's). Reordering is refused too: the formats promise that no tag is ever reordered.
 *
 * Pure: no I/O. Lives with the engines because their retry loops check answers with it.
 */

/** A canonical placeholder token. */
const TOKEN = /<(\/?)x(\d+)(\/?)>/g;
/** The same, as a whole text. */
const ONE_TOKEN = new RegExp(`^${TOKEN.source}$`);
/** The spellings models produce for a token: spaces inside, upper-case x, `<x1 />`. */
const LOOSE_TOKEN = /<\s*(\/?)\s*[xX]\s*(\d+)\s*(\/?)\s*>/g;

/**
 * The same, without the global flag: `test` on a global pattern leaves `lastIndex` behind, and
 * `matchAll` on that pattern would then start there and miss the tokens before it.
 */
const ANY_LOOSE_TOKEN = new RegExp(LOOSE_TOKEN.source);

/** Whether `text` holds anything a model could take for a placeholder token. */
export function looksLikePlaceholder(text: string): boolean {
  // Every token starts with `<`: most texts never reach the regular expression.
  return text.includes("<") && ANY_LOOSE_TOKEN.test(text);
}

/** Every span of `text` that could be read as a placeholder token, as [start, end) offsets. */
export function placeholderLookalikes(text: string): [number, number][] {
  return [...text.matchAll(LOOSE_TOKEN)].map((match) => [
    match.index,
    match.index + match[0].length,
  ]);
}

/**
 * `text` with every span that could be read as a placeholder token blanked out, at the same
 * offsets: what the text says without its markup (a glossary term "x1" is not in
 * `Click <x1>Save</x1>`). Each span becomes `blank(start, end)` (one character, default a
 * space) repeated over its length.
 */
export function blankPlaceholders(
  text: string,
  blank: (start: number, end: number) => string = () => " ",
): string {
  if (!looksLikePlaceholder(text)) return text;
  let blanked = "";
  let at = 0;
  for (const [start, end] of placeholderLookalikes(text)) {
    blanked += text.slice(at, start) + blank(start, end).repeat(end - start);
    at = end;
  }
  return blanked + text.slice(at);
}

/** A loose token with the white space on either side of it. */
const SPACED_LOOSE_TOKEN = new RegExp(`(\\s*)${LOOSE_TOKEN.source}(\\s*)`, "g");

/**
 * `text` without the spans that could be read as placeholder tokens, outer white space trimmed:
 * what a text whose source held none says when a model invented some (a run the fallback sends
 * never holds one: buildSegment makes lookalikes in a source atoms). A token with white space
 * beside it leaves one space, one between two words without any leaves none.
 */
export function withoutPlaceholders(text: string): string {
  if (!looksLikePlaceholder(text)) return text;
  const space = (
    _token: string,
    before: string,
    _close: string,
    _number: string,
    _alone: string,
    after: string,
  ) => before || after ? " " : "";
  return text.replace(SPACED_LOOSE_TOKEN, space).trim();
}

/** A canonical standalone token with the spaces and tabs beside it. */
const SPACED_STANDALONE = /[ \t]*<x\d+\/>[ \t]*/g;
/** A canonical opening or closing token. */
const PAIRED_TOKEN = /<\/?x\d+>/g;

/**
 * `text` as a reader would read it without its markup: paired tokens dropped (their words
 * stay), a standalone one read as one space (it stood for a line break or a tag between words),
 * outer white space trimmed. For texts a model reads and does not translate, where tokens it
 * cannot pair with any item's are noise.
 *
 * @example
 * ```ts
 * readableText("<x1/>Das ist <x2>ganz</x2><x3/>neu"); // "Das ist ganz neu"
 * ```
 */
export function readableText(text: string): string {
  if (!text.includes("<x")) return text;
  return text.replace(PAIRED_TOKEN, "").replace(SPACED_STANDALONE, " ").trim();
}

/** The placeholder tokens of `text`, in order, in their canonical spelling. */
export function placeholderSequence(text: string): string[] {
  return [...text.matchAll(TOKEN)].map((match) => match[0]);
}

/** What a canonical token does: open or close an inline element's content, or stand alone. */
export type PlaceholderKind = "open" | "close" | "alone";

/** A canonical token found in a text. */
export interface PlaceholderToken {
  token: string;
  number: string;
  kind: PlaceholderKind;
}

/**
 * `text` cut at its canonical tokens: text at even indexes, tokens at odd ones, each with its
 * number and kind (for writers that spell the tokens in another notation, such as TMX's codes).
 */
export function splitAtPlaceholders(
  text: string,
): (string | PlaceholderToken)[] {
  const parts: (string | PlaceholderToken)[] = [];
  let at = 0;
  for (const match of text.matchAll(TOKEN)) {
    parts.push(text.slice(at, match.index), {
      token: match[0],
      number: match[2],
      kind: match[3] ? "alone" : match[1] ? "close" : "open",
    });
    at = match.index + match[0].length;
  }
  parts.push(text.slice(at));
  return parts;
}

/** Whether `text` is exactly one canonical token. */
export function isPlaceholderToken(text: string): boolean {
  return ONE_TOKEN.test(text);
}

/** Rewrites loose spellings of tokens (`< X1 >`, `<x1 />`) into the canonical ones. */
export function normalizePlaceholders(text: string): string {
  return text.replace(
    LOOSE_TOKEN,
    (_, close: string, number: string, selfClosing: string) =>
      selfClosing ? `<x${number}/>` : `<${close}x${number}>`,
  );
}

/** A loose token written HTML-escaped: `&lt;x1&gt;`, `&lt;/x1&gt;`, `&lt;x2/&gt;`. */
const ESCAPED_TOKEN = /&lt;\s*\/?\s*[xX]\s*\d+\s*\/?\s*&gt;/;
/** The entities an HTML-escaping model writes, and their characters. */
const BASIC_ENTITIES: Record<string, string> = {
  "&lt;": "<",
  "&gt;": ">",
  "&amp;": "&",
  "&quot;": '"',
  "&#39;": "'",
  "&apos;": "'",
};

/**
 * `translated` as meant by a model that HTML-escaped its answer (`&lt;x1&gt;Tom &amp;
 * Jerry&lt;/x1&gt;`): when its tokens are escaped and the unescaped answer keeps the placeholders
 * of `source`, the basic entities are decoded throughout, except those `source` writes itself.
 * Any other answer comes back as it is.
 *
 * @example
 * ```ts
 * unescapedTokens("<x1>Salut</x1>", "&lt;x1&gt;Hi&lt;/x1&gt;"); // "<x1>Hi</x1>"
 * ```
 */
export function unescapedTokens(source: string, translated: string): string {
  if (!translated.includes("&lt;") || !ESCAPED_TOKEN.test(translated)) return translated;
  if (!looksLikePlaceholder(source) || placeholderProblem(source, translated) === undefined) {
    return translated;
  }
  const decoded = translated.replace(
    /&(?:lt|gt|amp|quot|#39|apos);/g,
    (entity) => source.includes(entity) ? entity : BASIC_ENTITIES[entity],
  );
  return placeholderProblem(source, decoded) === undefined ? decoded : translated;
}

/**
 * Why `translated` does not keep the placeholders of `source`, or undefined when it does
 * (after {@link normalizePlaceholders}). The reason names counts, never the text.
 *
 * @example
 * ```ts
 * placeholderProblem("Hi <x1>you</x1>", "Salut <x1>toi</x1>"); // undefined
 * placeholderProblem("Hi <x1>you</x1>", "Salut toi"); // "placeholders missing: 2 of 2"
 * ```
 */
export function placeholderProblem(source: string, translated: string): string | undefined {
  const expected = placeholderSequence(source);
  if (textBetweenPlaceholders(expected, translated) !== undefined) return undefined;
  const found = placeholderSequence(normalizePlaceholders(translated));
  const wanted = new Set(expected);
  const seen = new Set(found);
  const missing = expected.filter((token) => !seen.has(token)).length;
  if (missing > 0) return `placeholders missing: ${missing} of ${expected.length}`;
  if (found.length > expected.length) {
    const extra = found.filter((token) => !wanted.has(token)).length;
    return extra > 0
      ? `placeholders invented: ${extra}`
      : `placeholders duplicated: ${found.length - expected.length}`;
  }
  return "placeholders reordered";
}

/**
 * The pieces of `translated` (normalised) between its tokens when they are `expected` (a
 * source's {@link placeholderSequence}), each exactly once and in order; else undefined. This is
 * the rule {@link placeholderProblem} explains when it is broken.
 *
 * @example
 * ```ts
 * textBetweenPlaceholders(["<x1>", "</x1>"], "Salut < x1 >toi</x1>!"); // ["Salut ", "toi", "!"]
 * ```
 */
export function textBetweenPlaceholders(
  expected: readonly string[],
  translated: string,
): string[] | undefined {
  // Every spelling starts with `<`: most answers (segments without markup) hold none, and a
  // scan for one character costs less than a pass of the regular expression.
  if (!translated.includes("<")) return expected.length === 0 ? [translated] : undefined;
  // One pass over the loose spellings, each read as its canonical token in place: the same
  // answer as normalising and then splitting on canonical tokens, without building either.
  const pieces: string[] = [];
  let at = 0;
  LOOSE_TOKEN.lastIndex = 0;
  for (
    let match = LOOSE_TOKEN.exec(translated);
    match !== null;
    match = LOOSE_TOKEN.exec(translated)
  ) {
    const token = match[3] ? `<x${match[2]}/>` : `<${match[1]}x${match[2]}>`;
    if (token !== expected[pieces.length]) return undefined;
    pieces.push(translated.slice(at, match.index));
    at = LOOSE_TOKEN.lastIndex;
  }
  if (pieces.length !== expected.length) return undefined;
  pieces.push(translated.slice(at));
  return pieces;
}
