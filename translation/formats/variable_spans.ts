/**
 * The interpolation variables of UI strings, which come back byte for byte in `format: "text"`
 * and `"xml"`: an app fills them in after translation, so a translated one shows the raw
 * variable (German capitalises `{name}` into `{Name}`; a model "translates" `{count}` into
 * `{Anzahl}`). Only what no prose writes is taken: a printf conversion glued to a letter
 * (`5%discount`) or with a space flag (`100% sure`) is text, as is a brace never closed.
 *
 * Pure: no I/O.
 */
import { atom, close, matchedSpans, open, type SpanFinder } from "./placeholders.ts";

/** C's, Java's, Android's and Objective-C's (`%@`) conversions, positional ones too (`%1$s`). */
const PRINTF = String.raw`(?<!%)%(?:\d+\$)?[-+#0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?` +
  String.raw`(?:hh|h|ll|l|L|z|j|t|q)?[sdiuoxXfFeEgGaAcp@](?![\p{L}\p{N}_])`;
/** Python's named conversions (`%(count)d`). */
const PYTHON = String.raw`%\([\p{L}_][\p{L}\p{N}_.]*\)[-+#0 ]*\d*(?:\.\d+)?[sdifrxXeEgGc]`;
/** Mustache, Handlebars, Jinja and Angular (`{{ user.name }}`, `{{{html}}}`). */
const MUSTACHE = String.raw`\{\{\{?[^{}\n]+\}\}\}?`;
/**
 * One brace: ICU's and .NET's arguments (`{name}`, `{0}`, `{count, number}`, `{0:N2}`), with
 * JavaScript's `${…}`, Ruby's `#{…}` and `%{…}` before it. ICU's `plural` and `select` keep
 * their skeleton, the text of their branches is translated (see {@link icuSkeleton}).
 */
const BRACE = String.raw`[$#%]?\{(?:[\p{L}_][\p{L}\p{N}_.-]*|\d+(?:,-?\d+)?(?::[^{}\n]*)?)` +
  String.raw`(?:\s*,\s*(?:number|date|time|spellout|ordinal|duration)(?:\s*,\s*[^{}\n]*)?)?\}`;
/**
 * A template's tags and comments, which the template engine runs after translation: Jinja's,
 * Django's, Liquid's, Twig's and Nunjucks' `{% if user %}` and `{# note #}`, ERB's, EJS's and
 * ASP's `<%= user.name %>` (no prose writes `{%`, `{#…#}` or `<%`). Up to 500 characters, on
 * any number of lines: a tag may wrap, a brace never closed is still text.
 */
const TEMPLATE_TAG = String.raw`\{%[\s\S]{0,500}?%\}|\{#[\s\S]{0,500}?#\}|<%[\s\S]{0,500}?%>`;
/** i18next's nesting (`$t(common.footer)`, `$t(key, { count: 2 })`): a key, looked up. */
const NESTING = String.raw`\$t\([^()\n]{1,200}\)`;
/** Laravel's and Rails' `:name`, where it starts a word and is no shortcode (`:tada:`). */
const COLON_NAME = String.raw`(?<![\p{L}\p{N}_:\/]):[a-z_][a-z0-9_]*(?![\p{L}\p{N}_:])`;

const VARIABLE = new RegExp(
  [TEMPLATE_TAG, PRINTF, PYTHON, MUSTACHE, NESTING, BRACE, COLON_NAME].join("|"),
  "gu",
);
const found = matchedSpans(VARIABLE);
/** Where an ICU argument whose branches are text opens (`{count, plural, one {…} …}`). */
const BRANCHING = /\{\s*[\p{L}\p{N}_]+\s*,\s*(plural|selectordinal|select)\s*,/uy;
/** A branch's selector: a keyword (`one`, `male`) or an exact value (`=0`). */
const SELECTOR = String.raw`(?:=\s*-?\d+(?:\.\d+)?|[\p{L}\p{N}_-]+)`;
/** From an ICU argument's `{` to its first branch's `{`: `{count, plural, offset:1 one `. */
const HEAD = new RegExp(
  String.raw`^\{\s*[\p{L}\p{N}_]+\s*,\s*(?:plural|selectordinal|select)\s*,\s*` +
    String.raw`(?:offset\s*:\s*\d+\s+)?${SELECTOR}\s*$`,
  "u",
);
/**
 * A brace quoted as ICU quotes it, `'{'` or `'}'`: a message with no `plural` is ICU's too
 * when it holds one (Python's and .NET's formats write `{{`, and prose never writes it).
 */
const QUOTED_BRACE = /'[{}]'/;
/** What makes a text an ICU message: a branching argument or a quoted brace. */
const ICU_SIGN = /plural|select|'[{}]'/;
/** Between two branches: ` other `. */
const BETWEEN = new RegExp(String.raw`^\s*${SELECTOR}\s*$`, "u");

/** An open brace on the walk of {@link icuSkeleton}. */
interface OpenBrace {
  at: number;
  /** A branch's text opens here (its parent is a branching argument). */
  branch: boolean;
  /** Whether `#` stands for the number here (in a `plural`'s or `selectordinal`'s branches). */
  counted: boolean;
  /** The `#` in a branch's own text. */
  pounds: number[];
  /** A branching argument opens here: its branches' [open, close] braces. */
  branches?: [number, number][];
}

/**
 * An ICU MessageFormat message's skeleton, which an engine must not translate (`{COUNT, PLURAL,
 * ONE {…}}` is no message): for each `plural`, `select` and `selectordinal` whose braces close
 * and whose selectors are selectors, everything but its branches' text (the name and type, the
 * selectors, `offset:`, the braces) and the `#` that stands for the number. `starts` are the
 * offsets of every branch's `{`, closed or not: `one {item}` is a branch's text, never an
 * argument. One walk, the open braces on a stack. ICU's apostrophe quoting is read: `'{'`,
 * `'}'`, `'#'` and `'{name}'` are characters, kept with their quotes; `''` is an apostrophe.
 */
function icuSkeleton(text: string): { spans: [number, number][]; starts: Set<number> } {
  const spans: [number, number][] = [];
  const starts = new Set<number>();
  const open: OpenBrace[] = [];
  const quotes: [number, number][] = [];
  let quotedEnd = 0;
  for (const { 0: brace, index: at } of text.matchAll(/'(?:'|[{}#|][^']*'?)|[{}#]/g)) {
    if (at < quotedEnd) continue;
    if (brace[0] === "'") {
      // `''` is an apostrophe, in quotes too; a quote runs to the next lone `'` or the end.
      let end = at + brace.length;
      while (brace.length > 2 && text[end - 1] === "'" && text[end] === "'") {
        const next = text.indexOf("'", end + 1);
        end = next === -1 ? text.length : next + 1;
      }
      if (brace !== "''") quotes.push([at, end]);
      quotedEnd = end;
      continue;
    }
    const top = open.at(-1);
    if (brace === "#") {
      // `#{name}` is Ruby's variable, found as one.
      if (top?.branch && top.counted && text[at + 1] !== "{") top.pounds.push(at);
    } else if (brace === "{") {
      const branch = top?.branches !== undefined;
      if (branch) starts.add(at);
      BRANCHING.lastIndex = at;
      const type = branch ? undefined : BRANCHING.exec(text)?.[1];
      // A `select` inside a `plural`'s branch: `#` is still the plural's number.
      const counted = (type !== undefined && type !== "select") || top?.counted === true;
      open.push({ at, branch, counted, pounds: [], branches: type ? [] : undefined });
    } else {
      const closed = open.pop();
      const parent = open.at(-1);
      if (closed?.branch && parent?.branches) {
        parent.branches.push([closed.at, at]);
        parent.pounds.push(...closed.pounds);
      }
      if (closed?.branches) spans.push(...skeletonOf(text, closed, at));
    }
  }
  // Quotes are ICU's only in a message: elsewhere `l'{name}` is an apostrophe and a variable.
  if (spans.length > 0 || QUOTED_BRACE.test(text)) spans.push(...quotes);
  return { spans: spans.sort((a, b) => a[0] - b[0]), starts };
}

/**
 * The skeleton of the branching argument `message` closed at `end`, none when it is no ICU
 * message (a selector of two words, text between branches, no branch).
 */
function skeletonOf(text: string, message: OpenBrace, end: number): [number, number][] {
  const branches = message.branches ?? [];
  if (branches.length === 0) return [];
  if (!HEAD.test(text.slice(message.at, branches[0][0]))) return [];
  if (text.slice(branches.at(-1)![1] + 1, end).trim() !== "") return [];
  const spans: [number, number][] = [[message.at, branches[0][0] + 1]];
  for (let next = 1; next < branches.length; next++) {
    const [close, open] = [branches[next - 1][1], branches[next][0]];
    if (!BETWEEN.test(text.slice(close + 1, open))) return [];
    spans.push([close, open + 1]);
  }
  spans.push([branches.at(-1)![1], end + 1]);
  return [...spans, ...message.pounds.map((at): [number, number] => [at, at + 1])];
}

/**
 * The interpolation variables of `text`, as [start, end) offsets.
 *
 * @example
 * ```ts
 * variableSpans("Hi {name}, %1$d new"); // [[3, 9], [11, 15]]
 * ```
 */
export const variableSpans: SpanFinder = (text) => {
  if (!/[%{:$]/.test(text)) return [];
  const spans = found(text);
  if (!ICU_SIGN.test(text)) return spans;
  const icu = icuSkeleton(text);
  return mergeSpans(icu.spans, spans.filter(([start]) => !icu.starts.has(start)));
};

const RICH_TEXT_TAG = matchedSpans(/<\/?[\p{L}\p{N}][\p{L}\p{N}_.:-]*\s*\/?>/gu);
/** A rich-text tag alone: its `/` before the name (a close) and its name. */
const TAG_NAME = /^<(\/?)([\p{L}\p{N}][\p{L}\p{N}_.:-]*)\s*>$/u;

/**
 * A message's rich-text tags (FormatJS's and next-intl's `<link>…</link>`, react-i18next's
 * `<1>…</1>`, `<br/>`): the app renders them by name, so a translated one shows as written. For
 * message mode only: in a plain text, `<b>` is the author's text. An opening and a closing tag
 * are an open and a close, paired by name where they nest inside the segment (else atoms).
 */
export const richTextTags: SpanFinder = (text) => text.includes("<") ? RICH_TEXT_TAG(text) : [];
richTextTags.markupOf = (span) => {
  const tag = TAG_NAME.exec(span);
  if (tag === null) return atom(span);
  // Prefixed: a format's own pairs (Markdown's `md12`) never take a tag's close for theirs.
  return tag[1] === "" ? open(span, `rich:${tag[2]}`) : close(span, `rich:${tag[2]}`);
};

/**
 * An ICU message's skeleton, `#` and quoted parts alone: in message mode they win over the
 * message's own spans (a selectordinal's `{#st}` is the number and a suffix, not a hashtag).
 */
export const icuSpans: SpanFinder = (text) => ICU_SIGN.test(text) ? icuSkeleton(text).spans : [];
variableSpans.acrossMarkup = icuSpans;

/**
 * The spans of `first` and those of `second` that overlap none of them, in order: `first` wins
 * where both find one (a URL holding `{id}` is one URL).
 */
export function bothSpans(first: SpanFinder, second: SpanFinder): SpanFinder {
  const both: SpanFinder = (text) => mergeSpans(first(text), second(text));
  both.acrossMarkup = first.acrossMarkup ?? second.acrossMarkup;
  // Each finder's spans become markup by the text they hold (markupOf makes an atom of any
  // span that is no tag), so one finder's rule serves both.
  both.markupOf = first.markupOf ?? second.markupOf;
  return both;
}

/** `kept` and the spans of `more` that overlap none of them, both in order. */
function mergeSpans(kept: [number, number][], more: [number, number][]): [number, number][] {
  if (more.length === 0) return kept;
  if (kept.length === 0) return more;
  // Both are in order: one walk along them.
  const spans: [number, number][] = [];
  let next = 0;
  for (const span of more) {
    while (next < kept.length && kept[next][1] <= span[0]) spans.push(kept[next++]);
    if (next < kept.length && kept[next][0] < span[1]) continue; // overlaps a kept one
    spans.push(span);
  }
  for (; next < kept.length; next++) spans.push(kept[next]);
  return spans;
}
