/**
 * Front matter: `---` (YAML) or `+++` (TOML) on line 1 and a fence closing it on a line of its
 * own, for YAML `---` or `...` (Pandoc, Jekyll and Python-Markdown's meta close it with either;
 * the first closes it). `...` closes none where a blank line follows the `---`: Pandoc reads no
 * YAML block there (and Python-Markdown's meta ends at it), so it is a thematic break before
 * prose, and only micromark's `---` closes it. Every Markdown reader asks here where the body
 * starts, and micromark is given the closer found (markdown_syntax.ts).
 *
 * Pure: no I/O.
 */

const NEWLINE = String.raw`(?:\r?\n|\r)`;
const BLANK_LINE = String.raw`[ \t]*${NEWLINE}`;
const FRONT_MATTER = new RegExp(
  String.raw`^(?:---[ \t]*${NEWLINE}(?:(?=${BLANK_LINE})(?:[^]*?${NEWLINE})??---|` +
    String.raw`(?!${BLANK_LINE})(?:[^]*?${NEWLINE})??(?:---|\.\.\.))|` +
    String.raw`\+\+\+[ \t]*${NEWLINE}(?:[^]*?${NEWLINE})??\+\+\+)[ \t]*(?=\r?\n|\r|$)`,
);

/** Where the body starts: after the front matter (`---` or `+++` fences on line 1), or 0. */
export function frontMatterEnd(source: string): number {
  return FRONT_MATTER.exec(source)?.[0].length ?? 0;
}

/** The fence that closes the front matter of `source` (`---`, `...`, `+++`), if it has one. */
export function frontMatterCloser(source: string): string | undefined {
  const end = frontMatterEnd(source);
  return end === 0 ? undefined : source.slice(0, end).trimEnd().slice(-3);
}
