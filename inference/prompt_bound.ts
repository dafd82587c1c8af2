/**
 * A prompt that cannot fit the context is refused before it is tokenized in full.
 *
 * Tokenizing runs on the daemon's event loop, and llama.cpp's tokenizer for SentencePiece
 * vocabularies (Llama 2, Mistral, Gemma, Phi-3 …) takes time growing faster than the square of
 * the number of characters it has to spell byte by byte (emoji, control characters, rare CJK:
 * each one reallocates the whole output so far). A 960 KB prompt of emoji, within the body
 * limit, held the daemon for 70 s before its 400, `/health` and every stream with it.
 *
 * So a long prompt's text is tokenized in growing prefixes, doubling from the context size in
 * characters, and the count stops as soon as a prefix alone holds more tokens than the context
 * (plus {@link PREFIX_SLACK}): a prompt that cannot fit costs about as much as one that fills the
 * context. A prompt no longer than the context in characters is not checked here: the full
 * tokenization that follows is as cheap. Nor is a prompt of more turns than the context has
 * tokens: each turn costs template tokens, whatever its text.
 */
import { GenerationError, type GenerationParams } from "./generation.ts";

/** Counts the tokens of plain text (no special tokens), as the prompt's text parts are read. */
export type CountTokens = (text: string) => number;

/**
 * Tokens a prefix may hold beyond the whole text's share of it: the cut may split the last
 * token into its bytes, and the turns are joined here without the template between them.
 */
const PREFIX_SLACK = 64;

/**
 * A lower bound of the prompt's tokens when the turns' text alone cannot fit `contextSize`;
 * undefined when it may fit (the full tokenization decides).
 *
 * @example
 * ```ts
 * const beyond = tokensBeyondContext(["😀".repeat(240_000)], count, 2048);
 * // beyond > 2048, after tokenizing about 4,096 characters instead of 240,000
 * ```
 */
export function tokensBeyondContext(
  texts: readonly string[],
  countTokens: CountTokens,
  contextSize: number,
): number | undefined {
  // Every turn after the first adds a token at least (its template markup, or the separator that
  // joins it to the turn before): thousands of empty turns, counted as text, would pass below
  // and then be rendered and tokenized in full.
  if (texts.length - 1 > contextSize) return texts.length - 1;
  const text = texts.join("\n");
  if (text.length <= contextSize) return undefined;
  const limit = contextSize + PREFIX_SLACK + texts.length;
  for (let length = contextSize;; length *= 2) {
    const end = Math.min(cutPoint(text, length), text.length);
    const tokens = countTokens(text.slice(0, end));
    if (tokens > limit) return tokens - PREFIX_SLACK - texts.length;
    if (end === text.length) return undefined;
  }
}

/** `length`, or one less where that would split a surrogate pair. */
function cutPoint(text: string, length: number): number {
  if (length >= text.length) return text.length;
  const last = text.charCodeAt(length - 1);
  return last >= 0xd800 && last <= 0xdbff ? length - 1 : length;
}

/**
 * Refuses a generation whose turns alone cannot fit `contextSize` ({@link tokensBeyondContext}).
 *
 * @throws {GenerationError} `context_overflow` with a lower bound of the prompt's tokens.
 */
export function refuseBeyondContext(
  params: Pick<GenerationParams, "turns" | "maxTokens" | "maxTokensField">,
  countTokens: CountTokens,
  contextSize: number,
): void {
  const texts = params.turns.map((turn) => turn.text);
  const beyond = tokensBeyondContext(texts, countTokens, contextSize);
  if (beyond === undefined) return;
  throw new GenerationError({
    kind: "context_overflow",
    promptTokens: beyond,
    atLeast: true,
    maxTokens: params.maxTokens,
    maxTokensField: params.maxTokensField,
    contextSize,
  });
}
