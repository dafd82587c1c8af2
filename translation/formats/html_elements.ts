/**
 * What HTML's element names mean to the cut: which elements are never translated, which end a
 * sentence, and the bits a start tag's name carries (html_tokens.ts reads one lookup per tag).
 */
import { CLOSING_TAGS, FOREIGN_ELEMENTS, TEXT_MODES, VOID_ELEMENTS } from "./html_nesting.ts";

/** Whether an element's content is never translated (`code`, `kbd`, `script`...). */
export function isNeverTranslated(name: string): boolean {
  return NEVER_TRANSLATED.has(name);
}

const NOTRANSLATE_CLASS = /(?:^|\s)notranslate(?:\s|$)/;
/**
 * Icon fonts draw a ligature's word as its icon (`<span class="material-icons">delete</span>`):
 * translated, the word is no icon's name and the page shows it as text. Google's Material Icons
 * and Material Symbols in each style (`material-icons-round`, `material-symbols-outlined`).
 */
const ICON_FONT_CLASS = /(?:^|\s)material-(?:icons|symbols)\S*/;

/**
 * Whether a class list (a `class` value) refuses translation as `translate="no"` does: Google
 * Translate's and Chrome's `notranslate`.
 */
export function refusedByClass(classes: string | undefined): boolean {
  return classes !== undefined && classes.includes("notranslate") &&
    NOTRANSLATE_CLASS.test(classes);
}

/**
 * Whether a class list names an icon font: the element's content is never translated, as a
 * `code`'s (its own `aria-label` or `title`, what a screen reader says, is).
 */
export function isIconFont(classes: string | undefined): boolean {
  return classes !== undefined && classes.includes("material-") && ICON_FONT_CLASS.test(classes);
}

/** Elements whose content is never translated. */
export const NEVER_TRANSLATED = new Set([
  "script",
  "style",
  "code",
  "pre",
  "kbd",
  "samp",
  "var",
  "math",
  "svg",
  "textarea",
  // Raw text shown as written (`xmp`, `plaintext`) or never shown (fallbacks): a reference or
  // an escape written into them would show literally.
  "xmp",
  "plaintext",
  "iframe",
  "noembed",
  "noframes",
  // A ruby's annotations: the base text's reading (`rt`, `rtc`) and the parentheses shown
  // around it where ruby is not supported (`rp`). A reading translated is nonsense; the base
  // text around them stays in its sentence.
  "rt",
  "rp",
  "rtc",
  // Angular Material's icon element: its text is an icon font's ligature, as in an element of
  // class `material-icons` (`<mat-icon>home</mat-icon>`), whatever its class.
  "mat-icon",
]);
/**
 * Elements that end a sentence: HTML's blocks, tables, lists, form containers, the document's
 * own elements and `applet` (a `select`, a `video` or a `template` is instead one placeholder of
 * its sentence: {@link EMBEDDING}). Every other element stays inside its sentence: the inline
 * ones DECISIONS names, the rest of HTML's phrasing content (`label`, `ruby`, `output`,
 * `nobr`...), and names HTML does not define — custom elements
 * (`<user-name>`, `<router-link>`) and unknown ones, which browsers show inline. A list of the
 * inline ones would split every sentence holding a custom element into pieces. `script` and
 * `style` are not shown, `textarea` is a form control like `input` and `iframe` embeds as `img`
 * does (its content is never shown): inside a sentence they are kept whole as one placeholder
 * rather than cutting it in three. `noscript` is phrasing
 * content too: its content is translated (DECISIONS does not list it as never translated; it is
 * what a reader without scripts sees), so inside a paragraph it is an inline element of the
 * sentence (`Text <x1>enable JS</x1> more text.`), and one holding blocks is cut by them.
 */
export const SENTENCE_BREAKING = new Set([
  "address",
  "applet",
  "article",
  "aside",
  "base",
  "basefont",
  "bgsound",
  "blockquote",
  "body",
  "caption",
  "center",
  "col",
  "colgroup",
  "dd",
  "details",
  "dialog",
  "dir",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "frame",
  "frameset",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "head",
  "header",
  "hgroup",
  "hr",
  "html",
  "isindex",
  "keygen",
  "legend",
  "li",
  "link",
  "listing",
  "main",
  "marquee",
  "menu",
  "menuitem",
  "meta",
  "nav",
  "noembed",
  "noframes",
  "ol",
  "optgroup",
  "option",
  "p",
  "param",
  "plaintext",
  "pre",
  "search",
  "section",
  "summary",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "title",
  "tr",
  "ul",
  "xmp",
]);

/**
 * Elements whose content a browser shows in place of the element, not as words of the sentence
 * around it: a `select`'s options, the fallback of media and embedded objects (shown where they
 * cannot play). Inside a sentence the element is one placeholder of it (`Choose <x1/> as your
 * color.`) and its own text is cut into sentences apart (html_tokens.ts); as a block breaker
 * each cut its sentence in three.
 */
export const EMBEDDING = new Set([
  "audio",
  "canvas",
  "object",
  "select",
  "video",
  // Content shown elsewhere or not at all: a `template`'s when a script clones it, a
  // `datalist`'s as an input's suggestions.
  "datalist",
  "template",
]);

/**
 * HTML5's formatting elements: the ones a browser reopens at the next text when a block closed
 * them without their end tag (the list of active formatting elements). Only these, and elements
 * in foreign content, can take later text back inside them (html_reopened.ts).
 */
export const FORMATTING_ELEMENTS = new Set([
  "a",
  "b",
  "big",
  "code",
  "em",
  "font",
  "i",
  "nobr",
  "s",
  "small",
  "strike",
  "strong",
  "tt",
  "u",
]);

/** What a start tag's name says of its element, as bits. */
export const BREAKS_SENTENCE = 1;
export const IS_NEVER_TRANSLATED = 2;
export const IS_VOID = 4;
export const IS_FOREIGN = 8;
export const HAS_TEXT_MODE = 16;
export const MAY_CLOSE = 32;
export const IS_EMBEDDING = 64;
/**
 * The bits of every name in the sets above: one lookup per start tag in place of eight (names
 * not listed have none).
 */
export const ELEMENT_BITS: ReadonlyMap<string, number> = (() => {
  const bits = new Map<string, number>();
  const mark = (names: Iterable<string>, bit: number) => {
    for (const name of names) bits.set(name, (bits.get(name) ?? 0) | bit);
  };
  mark(SENTENCE_BREAKING, BREAKS_SENTENCE);
  mark(NEVER_TRANSLATED, IS_NEVER_TRANSLATED);
  mark(VOID_ELEMENTS, IS_VOID);
  mark(FOREIGN_ELEMENTS, IS_FOREIGN);
  mark(TEXT_MODES.keys(), HAS_TEXT_MODE);
  mark(CLOSING_TAGS, MAY_CLOSE);
  mark(EMBEDDING, IS_EMBEDDING);
  return bits;
})();
