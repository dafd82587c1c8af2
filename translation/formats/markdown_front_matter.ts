/**
 * Front matter as micromark-extension-frontmatter reads it: `---` (YAML) or `+++` (TOML) on
 * line 1 and the same fence closing it on a line of its own. Every Markdown reader asks here
 * where the body starts.
 *
 * Pure: no I/O.
 */

const FRONT_MATTER = /^(---|\+\+\+)[ \t]*(?:\r?\n|\r)(?:[^]*?(?:\r?\n|\r))??\1[ \t]*(?=\r?\n|\r|$)/;

/** Where the body starts: after the front matter (`---` or `+++` fences on line 1), or 0. */
export function frontMatterEnd(source: string): number {
  return FRONT_MATTER.exec(source)?.[0].length ?? 0;
}
