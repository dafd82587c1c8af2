/**
 * What a subtitle cue's translation may not hold: a timing (a player starts a new cue at a line
 * that is one), or a line left empty (which ends the cue). The chat engines' retry loop asks
 * again for such an answer; the subtitle format defuses one that stays so.
 *
 * Pure: no I/O. Lives with the engines because their retry loops check answers with it.
 */
import { placeholderSequence, textBetweenPlaceholders } from "./placeholder_tokens.ts";

/**
 * Two timestamps around `-->`, as players read a timing line (`00:00:01,000 --> 00:00:02,000`,
 * with dots, colons or dropped zeros; a `:` in the first, as players read none without, so
 * `1 --> 2` is text), wherever it stands.
 */
export const SUBTITLE_TIMING = /\d[\d.,]*:[\d:.,]*[ \t]*-->[ \t]*\d/g;

/**
 * Why the translation `translated` of the subtitle text `source` (placeholders in) would add or
 * end a cue, or undefined: it holds more timings than the source, or a text the source has
 * between a line-break placeholder (or any standalone one) and its neighbour is left empty.
 * Placeholders that did not come back are {@link placeholderProblem}'s to tell.
 *
 * @example
 * ```ts
 * subtitleAnswerProblem("Hi<x1/>you", "Hallo<x1/>00:00:05,000 --> 00:00:06,000"); // "…timing…"
 * ```
 */
export function subtitleAnswerProblem(source: string, translated: string): string | undefined {
  if (timings(translated) > timings(source)) return "a subtitle timing line in the text";
  const tokens = placeholderSequence(source);
  if (!tokens.some(isStandalone)) return undefined;
  const written = textBetweenPlaceholders(tokens, translated);
  const sent = textBetweenPlaceholders(tokens, source);
  if (!written || !sent) return undefined;
  const emptied = written.some((text, index) =>
    text.trim() === "" && sent[index].trim() !== "" &&
    (isStandalone(tokens[index - 1]) || isStandalone(tokens[index]))
  );
  return emptied ? "a subtitle line left empty" : undefined;
}

/** How many timings `text` holds. */
export function timings(text: string): number {
  return text.includes("-->") ? [...text.matchAll(SUBTITLE_TIMING)].length : 0;
}

function isStandalone(token: string | undefined): boolean {
  return token?.endsWith("/>") ?? false;
}
