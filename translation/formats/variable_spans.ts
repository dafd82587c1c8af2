/**
 * The interpolation variables of UI strings, which come back byte for byte in `format: "text"`
 * and `"xml"`: an app fills them in after translation, so a translated one shows the raw
 * variable (German capitalises `{name}` into `{Name}`; a model "translates" `{count}` into
 * `{Anzahl}`). Only what no prose writes is taken: a printf conversion glued to a letter
 * (`5%discount`) or with a space flag (`100% sure`) is text, as is a brace never closed.
 *
 * Pure: no I/O.
 */
import { matchedSpans, type SpanFinder } from "./placeholders.ts";

/** C's, Java's, Android's and Objective-C's (`%@`) conversions, positional ones too (`%1$s`). */
const PRINTF = String.raw`(?<!%)%(?:\d+\$)?[-+#0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?` +
  String.raw`(?:hh|h|ll|l|L|z|j|t|q)?[sdiuoxXfFeEgGaAcp@](?![\p{L}\p{N}_])`;
/** Python's named conversions (`%(count)d`). */
const PYTHON = String.raw`%\([\p{L}_][\p{L}\p{N}_.]*\)[-+#0 ]*\d*(?:\.\d+)?[sdifrxXeEgGc]`;
/** Mustache, Handlebars, Jinja and Angular (`{{ user.name }}`, `{{{html}}}`). */
const MUSTACHE = String.raw`\{\{\{?[^{}\n]+\}\}\}?`;
/**
 * One brace: ICU's and .NET's arguments (`{name}`, `{0}`, `{count, number}`, `{0:N2}`), with
 * JavaScript's `${…}`, Ruby's `#{…}` and `%{…}` before it. ICU's `plural` and `select` are left
 * to the engine, the text of their branches to translate (see {@link branchStarts}).
 */
const BRACE = String.raw`[$#%]?\{(?:[\p{L}_][\p{L}\p{N}_.-]*|\d+(?:,-?\d+)?(?::[^{}\n]*)?)` +
  String.raw`(?:\s*,\s*(?:number|date|time|spellout|ordinal|duration)(?:\s*,\s*[^{}\n]*)?)?\}`;
/** Laravel's and Rails' `:name`, where it starts a word and is no shortcode (`:tada:`). */
const COLON_NAME = String.raw`(?<![\p{L}\p{N}_:\/]):[a-z_][a-z0-9_]*(?![\p{L}\p{N}_:])`;

const VARIABLE = new RegExp([PRINTF, PYTHON, MUSTACHE, BRACE, COLON_NAME].join("|"), "gu");
const found = matchedSpans(VARIABLE);
/** Where an ICU argument whose branches are text opens (`{count, plural, one {…} …}`). */
const BRANCHING = /\{\s*[\p{L}\p{N}_]+\s*,\s*(?:plural|selectordinal|select)\s*,/uy;

/**
 * The offsets of the `{` that open an ICU `plural`'s or `select`'s branches: `one {item}` is
 * the text of a branch, not an argument. One walk, the open braces on a stack (true: a
 * branching argument, whose own braces open branches).
 */
function branchStarts(text: string): Set<number> {
  const starts = new Set<number>();
  const open: boolean[] = [];
  for (const brace of text.matchAll(/[{}]/g)) {
    if (brace[0] === "}") {
      open.pop();
      continue;
    }
    if (open.at(-1) === true) starts.add(brace.index);
    BRANCHING.lastIndex = brace.index;
    open.push(BRANCHING.test(text));
  }
  return starts;
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
  if (!/[%{:]/.test(text)) return [];
  const spans = found(text);
  if (!/plural|select/.test(text)) return spans;
  const branches = branchStarts(text);
  return spans.filter(([start]) => !branches.has(start));
};

/**
 * The spans of `first` and those of `second` that overlap none of them, in order: `first` wins
 * where both find one (a URL holding `{id}` is one URL).
 */
export function bothSpans(first: SpanFinder, second: SpanFinder): SpanFinder {
  return (text) => {
    const kept = first(text);
    const more = second(text);
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
  };
}
