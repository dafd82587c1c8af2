/**
 * The marker opening a block quote that is an alert or a callout: GitHub's `[!NOTE]` (`TIP`,
 * `IMPORTANT`, `WARNING`, `CAUTION`) and Obsidian's callouts, whose type is any word
 * (`[!info]`, `[!my-type]`) and may be followed by a fold mark (`[!faq]-` folded, `[!tip]+`
 * open) and a title on the same line (`> [!info]- Title`). The marker is the app's, read by its
 * type's name: translated or escaped, the quote would lose its alert. The title is text.
 *
 * Pure: no I/O.
 */

/** The marker at a block's start, with the line break after it or the spaces before a title. */
const MARKER = /^\[![\p{L}\p{N}_-]+\][+-]?(?:[ \t]*(?:\r\n?|\n)[ \t>]*|[ \t]+|$)/u;

/** How many characters of `text` (a text block's start) are an alert's marker; 0 for none. */
export function alertMarkerLength(text: string): number {
  return MARKER.exec(text)?.[0].length ?? 0;
}
