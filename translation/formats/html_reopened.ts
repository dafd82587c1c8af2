/**
 * Text a browser's tree construction puts inside a never-translated element that the cut's own
 * model of the open elements (html_nesting.ts) had closed: found with parse5's tree, read only
 * for items where that can happen.
 *
 * html_nesting.ts models where an element ends without its end tag, not what HTML5 does next:
 * a formatting element closed that way (`code`, `b translate="no"`) is reopened at the next text
 * (`<p><code>a<p>text`: `text` is inside a second `code`), and an end tag that would cross a
 * special element is ignored (`<svg><title><r></svg>e`: `e` stays in the svg, under its
 * `title`). Both only matter when the element closed was not translated, and only then is the
 * tree built (the builder says so, html_tokens.ts): a tree for every item cost three times the
 * tokenizer, and modelling the adoption agency and foreign content here would be a second tree
 * builder. The tokens and the output stay the source's, by offset; this only tells which text
 * tokens a reader sees inside a never-translated element, and those are kept.
 */
import { defaultTreeAdapter, type DefaultTreeAdapterMap, parseFragment } from "parse5";
import { isIconFont, NEVER_TRANSLATED, refusedByClass } from "./html_elements.ts";
import type { Token } from "./html_tokens.ts";

type ParentNode = DefaultTreeAdapterMap["parentNode"];
type Element = DefaultTreeAdapterMap["element"];

/**
 * Elements a tree may hold per `<` of the item, and over any item: a page's tree has about
 * one per start tag (counted in the source: the tokens hold a kept element as one). Reopening formatting elements at every paragraph grows it with the
 * product of the two (450 `<b id=…>` and 900 `<p>` in 8,000 characters: 400,000 elements, 3.7
 * seconds), as it does in a browser.
 */
const ELEMENTS_PER_ANGLE = 2;
const ELEMENTS_OVER = 1000;

/** Thrown when the tree outgrows its budget. */
const TOO_LARGE = new Error("html_reopened: tree over budget");

/**
 * Makes each text token that a browser's tree holds inside a never-translated or refused
 * element a kept one (`break`); `ignored` names elements kept whole (the request's
 * `ignore_tags`). `from`: where the first untranslated element closed early ends; when the
 * tree is over budget every text token after it is kept (nothing of a `code` is sent, at the
 * cost of text a browser would have shown outside it).
 */
export function keepReopened(
  source: string,
  tokens: Token[],
  from: number,
  ignored?: ReadonlySet<string>,
): void {
  let kept: [number, number][];
  try {
    kept = keptTextRanges(source, ELEMENTS_PER_ANGLE * angles(source) + ELEMENTS_OVER, ignored);
  } catch (error) {
    if (error !== TOO_LARGE) throw error;
    kept = [[from, source.length]];
  }
  if (kept.length === 0) return;
  kept.sort((a, b) => a[0] - b[0]);
  let range = 0;
  for (const token of textTokens(tokens)) {
    while (range < kept.length && kept[range][1] <= token.start) range++;
    if (range < kept.length && kept[range][0] < token.end) token.kind = "break";
  }
}

/** The text tokens, those inside an embedding element's too, in source order. */
function* textTokens(tokens: readonly Token[]): Generator<Token> {
  for (const token of tokens) {
    if (token.kind === "text") yield token;
    else if (token.inner) yield* textTokens(token.inner);
  }
}

/**
 * [start, end) of the text nodes of `source`'s tree that are not translated; throws
 * {@link TOO_LARGE} past `budget` elements.
 */
function keptTextRanges(
  source: string,
  budget: number,
  ignored?: ReadonlySet<string>,
): [number, number][] {
  let elements = 0;
  const treeAdapter = {
    ...defaultTreeAdapter,
    createElement(...args: Parameters<typeof defaultTreeAdapter.createElement>) {
      if (++elements > budget) throw TOO_LARGE;
      return defaultTreeAdapter.createElement(...args);
    },
  };
  // `noscript` is read as markup, as a browser without scripts reads it (html_nesting.ts).
  const tree = parseFragment(source, {
    sourceCodeLocationInfo: true,
    scriptingEnabled: false,
    treeAdapter,
  });
  const kept: [number, number][] = [];
  /** `fixed`: inside an element never translated, where `translate="yes"` changes nothing. */
  const walk = (node: ParentNode, translating: boolean, fixed: boolean) => {
    for (const child of node.childNodes) {
      if (child.nodeName === "#text") {
        const location = child.sourceCodeLocation;
        if (!translating && location) kept.push([location.startOffset, location.endOffset]);
      } else if ("tagName" in child) {
        const { inner, never } = reading(child, translating, fixed, ignored);
        walk(child, inner, never);
        // An HTML `template` holds its content apart (one inside `svg` does not).
        const content = (child as Partial<DefaultTreeAdapterMap["template"]>).content;
        if (content) walk(content, inner, never);
      }
    }
  };
  walk(tree, true, false);
  return kept;
}

/** How many `<` the source holds. */
function angles(source: string): number {
  let count = 0;
  for (let at = source.indexOf("<"); at !== -1; at = source.indexOf("<", at + 1)) count++;
  return count;
}

/** Whether an element's content is translated, and whether nothing inside it can be. */
function reading(
  element: Element,
  translating: boolean,
  fixed: boolean,
  ignored?: ReadonlySet<string>,
): { inner: boolean; never: boolean } {
  const attribute = (name: string) => element.attrs.find((one) => one.name === name)?.value;
  const classes = attribute("class");
  const never = fixed || NEVER_TRANSLATED.has(element.tagName) || isIconFont(classes) ||
    ignored?.has(element.tagName) === true;
  const says = attribute("translate")?.toLowerCase();
  const refused = says === "no" || refusedByClass(classes);
  return { inner: !never && (says === "yes" || (translating && !refused)), never };
}
