/**
 * Splits a text too long for a model's input window at sentence boundaries (`Intl.Segmenter`),
 * and joins the translated pieces back with the whitespace that separated them.
 */

/** One piece of a split text. */
export interface TextChunk {
  /** The piece without surrounding whitespace. */
  text: string;
  /** The whitespace that followed the piece in the original text. */
  after: string;
}

/** A text cut into pieces that each fit the model's window. */
export interface ChunkedText {
  /** Whitespace before the first piece. */
  before: string;
  chunks: TextChunk[];
}

/**
 * Cuts `text` into pieces for which `fits` holds, packing whole sentences greedily; a sentence
 * that does not fit on its own is cut between words, and a word that does not fit stays whole
 * (the tokenizer truncates it).
 *
 * @example
 * ```ts
 * splitText("One. Two. Three.", "en", (piece) => piece.length <= 9);
 * // { before: "", chunks: [{ text: "One. Two.", after: " " }, { text: "Three.", after: "" }] }
 * ```
 */
export function splitText(
  text: string,
  locale: string,
  fits: (piece: string) => boolean,
): ChunkedText {
  const before = /^\s*/.exec(text)![0];
  const body = text.slice(before.length);
  if (body.trim() === "" || fits(body.trimEnd())) {
    const trimmed = body.trimEnd();
    return { before, chunks: [{ text: trimmed, after: body.slice(trimmed.length) }] };
  }
  const sentences = segments(body, locale, "sentence")
    .flatMap((sentence) =>
      fits(sentence.trimEnd()) ? [sentence] : segments(sentence, locale, "word")
    );
  return { before, chunks: pack(sentences, fits) };
}

/** Puts translated pieces back together in the original layout. */
export function joinChunks(chunked: ChunkedText, translations: readonly string[]): string {
  return chunked.before +
    chunked.chunks.map((chunk, index) => translations[index] + chunk.after).join("");
}

function segments(text: string, locale: string, granularity: "sentence" | "word"): string[] {
  const segmenter = new Intl.Segmenter(segmenterLocale(locale), { granularity });
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

function segmenterLocale(locale: string): string | undefined {
  try {
    return Intl.Segmenter.supportedLocalesOf([locale])[0];
  } catch {
    // Codes outside BCP 47 (a model's own codes) fall back to the default locale.
    return undefined;
  }
}

function pack(parts: readonly string[], fits: (piece: string) => boolean): TextChunk[] {
  const chunks: TextChunk[] = [];
  let current = "";
  for (const part of parts) {
    if (current === "" && part.trim() === "" && chunks.length > 0) {
      chunks[chunks.length - 1].after += part;
      continue;
    }
    const candidate = current + part;
    if (current === "" || fits(candidate.trimEnd())) {
      current = candidate;
      continue;
    }
    chunks.push(toChunk(current));
    current = part;
  }
  if (current !== "") chunks.push(toChunk(current));
  return chunks;
}

function toChunk(piece: string): TextChunk {
  const text = piece.trimEnd();
  return { text, after: piece.slice(text.length) };
}
