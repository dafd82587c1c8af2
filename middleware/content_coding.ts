/**
 * The one rule for compressed request bodies, on every route that reads a body: a body sent
 * with a Content-Encoding other than `identity` is refused, naming the coding, before its bytes
 * are read as text (they would otherwise be refused as "not valid UTF-8", or as "not TMX").
 *
 * Refused rather than decoded: no client of either service compresses its body (the openai and
 * deepl-node clients, LibreTranslate and DeepLX clients, browsers' fetch), none of the servers
 * they were written for decodes one, and a decoded body would need its own size limit (a
 * 1 MiB gzip body can inflate to a gigabyte). Neither service's code table has a 415, so the
 * refusal is the service's 400 `invalid_request`.
 */

/**
 * Throws `compressed(coding)` when `contentEncoding` (the request's header) names a coding.
 *
 * @throws {Error} `compressed`'s error for any coding but `identity`.
 * @example
 * ```ts
 * requireIdentityCoding(c.req.header("content-encoding"), JSON_BODY_ERRORS.compressed);
 * ```
 */
export function requireIdentityCoding(
  contentEncoding: string | undefined,
  compressed: (coding: string) => Error,
): void {
  const coding = contentEncoding?.trim() ?? "";
  if (coding !== "" && coding.toLowerCase() !== "identity") throw compressed(coding);
}
