/**
 * How far MDX's JavaScript reaches in a Markdown item: an expression's braces and an ESM
 * statement's brackets pair over lines (and over blank lines, where MDX reads on until the
 * code is whole), strings, template literals and comments skipped. A reading of JavaScript's
 * brackets, not a parser: MDX items hold small pieces of code.
 *
 * Pure: no I/O.
 */

/** Where code reading stops, whatever it holds: a longer one is read as CommonMark reads it. */
const MAX_CODE = 20_000;

/** A reader of code's brackets, character by character. */
interface Reader {
  depth: number;
  /** The quote of the string or template being read, `/` in a block comment, else "". */
  inside: string;
}

/**
 * Reads `text[at]` (and the character after it for a comment's start or end) into `reader`;
 * returns the index of the next character to read.
 */
function step(reader: Reader, text: string, at: number): number {
  const char = text[at];
  if (reader.inside === "/") {
    if (char === "*" && text[at + 1] === "/") reader.inside = "";
    return char === "*" && text[at + 1] === "/" ? at + 2 : at + 1;
  }
  if (reader.inside !== "") {
    if (char === "\\") return at + 2;
    if (char === reader.inside) reader.inside = "";
    // A quote's string ends at its line's end (unclosed: no string), a template reads on.
    else if ((char === "\n" || char === "\r") && reader.inside !== "`") reader.inside = "";
    return at + 1;
  }
  if (char === "/" && text[at + 1] === "*") {
    reader.inside = "/";
    return at + 2;
  }
  if (char === "/" && text[at + 1] === "/") {
    let end = at;
    while (end < text.length && text[end] !== "\n" && text[end] !== "\r") end++;
    return end;
  }
  if (char === '"' || char === "'" || char === "`") reader.inside = char;
  else if (char === "{" || char === "(" || char === "[") reader.depth++;
  else if (char === "}" || char === ")" || char === "]") reader.depth--;
  return at + 1;
}

/** Where the expression whose `{` is at `at` ends (past its `}`), or -1 where it does not. */
export function expressionEnd(text: string, at: number): number {
  const reader: Reader = { depth: 0, inside: "" };
  const limit = Math.min(text.length, at + MAX_CODE);
  for (let index = at; index < limit;) {
    index = step(reader, text, index);
    if (reader.depth === 0 && reader.inside === "") return index;
  }
  return -1;
}

/**
 * Where the ESM block starting at `start` of `source` ends: at the first blank line (or the
 * end) where its brackets are closed, as MDX reads on over blank lines inside an object or a
 * function; -1 where they never close (MDX would not compile it: read as CommonMark).
 */
export function esmEnd(source: string, start: number): number {
  const reader: Reader = { depth: 0, inside: "" };
  const limit = Math.min(source.length, start + MAX_CODE);
  for (let index = start; index < limit;) {
    const char = source[index];
    if (char === "\n" || char === "\r") {
      const next = index + (char === "\r" && source[index + 1] === "\n" ? 2 : 1);
      if (reader.depth <= 0 && reader.inside === "" && isBlankFrom(source, next)) return index;
      if (reader.inside !== "`" && reader.inside !== "/") reader.inside = "";
      index = next;
      continue;
    }
    index = step(reader, source, index);
  }
  return limit === source.length && reader.depth <= 0 && reader.inside === "" ? limit : -1;
}

/** Whether the line at `at` is blank (or the text ends there). */
function isBlankFrom(text: string, at: number): boolean {
  let index = at;
  while (text[index] === " " || text[index] === "\t") index++;
  return index >= text.length || text[index] === "\n" || text[index] === "\r";
}
