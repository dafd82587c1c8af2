/**
 * The text of a TMX document's bytes. TMX is always Unicode (UTF-8 or UTF-16): the encoding is
 * told by a byte-order mark, or, without one, by how `<?xml` is written (XML 1.0, appendix F),
 * else UTF-8. A document in any other encoding is refused, naming the one its XML declaration
 * gives, so that the person importing it knows to save it as UTF-8.
 */
import { TmxError } from "./tmx.ts";

/**
 * The document's text.
 *
 * @throws {TmxError} when the bytes are not text in the encoding found.
 * @example
 * ```ts
 * tmxText(new TextEncoder().encode("<tmx/>")); // "<tmx/>"
 * ```
 */
export function tmxText(bytes: Uint8Array): string {
  const encoding = encodingOf(bytes);
  try {
    // A byte-order mark is not part of the text: TextDecoder drops it (ignoreBOM: false).
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    const declared = encoding === "utf-8" ? declaredEncoding(bytes) : undefined;
    const why = declared && !/^utf-?8$/i.test(declared)
      ? `: its XML declaration names ${declared}, and TMX is UTF-8 or UTF-16 (save it as UTF-8)`
      : "";
    throw new TmxError(`the body is not ${encoding.toUpperCase()} text${why}`);
  }
}

function encodingOf(bytes: Uint8Array): "utf-8" | "utf-16le" | "utf-16be" {
  const [a, b, c, d] = bytes;
  if (a === 0xff && b === 0xfe) return "utf-16le";
  if (a === 0xfe && b === 0xff) return "utf-16be";
  // `<?` with no byte-order mark: some Windows tools write UTF-16 without one, and an XML parser
  // reads it so (XML 1.0, appendix F); as UTF-8 it was a NUL after every character.
  if (a === 0x3c && b === 0 && c === 0x3f && d === 0) return "utf-16le";
  if (a === 0 && b === 0x3c && c === 0 && d === 0x3f) return "utf-16be";
  return "utf-8";
}

/** The `encoding` of the XML declaration at the start of the bytes, if any. */
function declaredEncoding(bytes: Uint8Array): string | undefined {
  const start = new TextDecoder("latin1").decode(bytes.subarray(0, 256));
  return /^(?:\xef\xbb\xbf)?<\?xml\s[^>]*?\bencoding\s*=\s*["']([A-Za-z][\w.:-]*)["']/.exec(start)
    ?.[1];
}
