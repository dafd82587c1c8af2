/**
 * Offsets in a text's NFC form carried back to the text as written, so a glossary can match in
 * NFC (terms are stored NFC) and still hand the engine, and give back, the user's own bytes: an
 * engine that leaves a name alone returned `ń` for the `n\u0301` it was sent.
 */

/**
 * Where each offset of `text.normalize("NFC")` at the edge of a character (a base and its
 * combining marks, or a Hangul syllable's jamo) lies in `text`; undefined when the NFC form is
 * not the character-by-character one (then offsets cannot be carried back).
 */
function boundaries(text: string): Map<number, number> | undefined {
  const map = new Map<number, number>([[0, 0]]);
  let normal = "";
  let start = 0;
  const close = (end: number) => {
    normal += text.slice(start, end).normalize("NFC");
    map.set(normal.length, end);
    start = end;
  };
  for (let at = 0; at < text.length;) {
    const point = text.codePointAt(at)!;
    const width = point > 0xffff ? 2 : 1;
    // A mark or a jamo vowel or final joins the character before it; anything else starts one.
    if (at > start && !COMBINING.test(String.fromCodePoint(point))) close(at);
    at += width;
  }
  close(text.length);
  return normal === text.normalize("NFC") ? map : undefined;
}

const COMBINING = /^[\p{M}\u1160-\u11ff\ud7b0-\ud7ff]$/u;

/**
 * `spans` (offsets in `text`'s NFC form) as offsets in `text`, or undefined when one of them does
 * not fall between two characters of it. `text` already NFC: the spans as they are.
 */
export function spansInText<T extends { start: number; end: number }>(
  text: string,
  spans: readonly T[],
): T[] | undefined {
  if (text.normalize("NFC") === text) return [...spans];
  const map = boundaries(text);
  if (map === undefined) return undefined;
  const carried: T[] = [];
  for (const span of spans) {
    const start = map.get(span.start);
    const end = map.get(span.end);
    if (start === undefined || end === undefined) return undefined;
    carried.push({ ...span, start, end });
  }
  return carried;
}

/**
 * `text` with the spans `inNfc` picks written in NFC, and every span at its offsets there: a term
 * to translate reaches the engine spelled as the glossary gives it (a model reads `cafe\u0301`
 * and the prompt's `café` as different words), every other byte as written.
 */
export function normaliseSpans<T extends { start: number; end: number }>(
  text: string,
  spans: readonly T[],
  inNfc: (span: T) => boolean,
): { text: string; spans: T[] } {
  let out = "";
  let at = 0;
  const moved = spans.map((span) => {
    out += text.slice(at, span.start);
    const piece = text.slice(span.start, span.end);
    const start = out.length;
    out += inNfc(span) ? piece.normalize("NFC") : piece;
    at = span.end;
    return { ...span, start, end: out.length };
  });
  return { text: out + text.slice(at), spans: moved };
}
