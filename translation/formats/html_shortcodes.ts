/**
 * WordPress's shortcodes and BBCode in an HTML item: the site runs them after translation, so
 * a translated one (`[CAPTION ID="…"]`, `[gallery ids="1,2"]` as `[galerie ids=…]`) is no
 * shortcode any more and shows as text. What no prose writes is taken: a close (`[/caption]`),
 * an open with attributes (`[gallery ids="1,2,3"]`), and a bare open whose close follows in
 * the same text (`[b]…[/b]`); `[sic]`, `[1]` and `[see note]` are text.
 *
 * Pure: no I/O.
 */
import type { SpanFinder } from "./placeholders.ts";

const NAME = String.raw`[a-z][a-z0-9_-]*`;
/** `key="value"`, `key='value'` or `key=value`, as WordPress's shortcode parser reads them. */
const ATTRIBUTE = String.raw`[\w-]+\s*=\s*(?:"[^"\n\]]*"|'[^'\n\]]*'|[^\s"'\]]+)`;
const SHORTCODE = new RegExp(
  String.raw`\[/(${NAME})\]|\[(${NAME})(?:(\s+${ATTRIBUTE})+\s*/?|\s*/)?\]`,
  "gi",
);

/**
 * The shortcodes of `text`, as [start, end) offsets.
 *
 * @example
 * ```ts
 * shortcodeSpans('[gallery ids="1,2"] and [sic]'); // [[0, 19]]
 * ```
 */
export const shortcodeSpans: SpanFinder = (text) => {
  if (!text.includes("[")) return [];
  const spans: [number, number][] = [];
  const closes = new Set<string>();
  // A bare open is taken when its close follows: read from the end, closes come first.
  const matches = [...text.matchAll(SHORTCODE)].reverse();
  for (const match of matches) {
    const [written, closed, opened, attributes] = match;
    if (closed !== undefined) closes.add(closed.toLowerCase());
    else if (
      attributes === undefined && !written.includes("/") && !closes.has(opened.toLowerCase())
    ) {
      continue;
    }
    spans.push([match.index, match.index + written.length]);
  }
  return spans.reverse();
};
