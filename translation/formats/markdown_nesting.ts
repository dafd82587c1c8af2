/**
 * How many lists and block quotes a Markdown line opens one inside another (`- - - … text`,
 * `> > > … text`), and how many the service reads. Markdown readers take time growing with the
 * square or the cube of that number: marked's list rule took 1.8 s for 1,000 lists on one line
 * and 46 s for 3,000 (a 6 KB item, with a lazy line after it), its block quote rule 2.5 s for
 * four paragraphs of 800 quotes, micromark 1.7 s for 4,000 lists; JavaScript runs one request at
 * a time, so one such item stopped the service. No document nests that deep (quoted e-mails reach
 * about ten): a request holding one is refused when it is validated (schemas/translation.ts),
 * naming the line.
 *
 * The scanner's line readers (markdown_scan_lines.ts) are not used: they take only what the
 * scanner reads (no tab, no CR), and this count must hold for every item.
 */

/** Lists and block quotes one line may open one inside another. */
export const MAX_NESTING = 32;

const TAB = 0x09;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const GREATER_THAN = 0x3e;

/** The first line (from 1) that opens more than {@link MAX_NESTING} containers, or undefined. */
export function overNestedLine(text: string): number | undefined {
  let line = 1;
  for (let start = 0; start < text.length; line++) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const content = end > start && text.charCodeAt(end - 1) === CARRIAGE_RETURN ? end - 1 : end;
    if (containersOpened(text, start, content) > MAX_NESTING) return line;
    start = end + 1;
  }
  return undefined;
}

/**
 * The block quote markers and list markers (`-`, `+`, `*`, `1.`, `1)` followed by white space or
 * the line's end) that start the line from `start` to `end`, past indentation; the list markers
 * count for nothing when they are a thematic break (`- - - -` of any length is a rule).
 */
function containersOpened(text: string, start: number, end: number): number {
  let quotes = 0;
  let lists = 0;
  let firstList = -1;
  let at = start;
  for (;;) {
    while (at < end && isBlank(text.charCodeAt(at))) at++;
    if (at === end) break;
    if (text.charCodeAt(at) === GREATER_THAN) {
      quotes++;
      at++;
      continue;
    }
    const marker = listMarkerEnd(text, at, end);
    if (marker === -1) break;
    if (firstList === -1) firstList = at;
    lists++;
    at = marker;
  }
  if (quotes + lists <= MAX_NESTING || lists === 0) return quotes + lists;
  return isThematicBreak(text, firstList, end) ? quotes : quotes + lists;
}

/** Where a list marker at `at` ends (its white space not included), or -1 when none starts. */
function listMarkerEnd(text: string, at: number, end: number): number {
  const code = text.charCodeAt(at);
  let after = at;
  if (code === 0x2d || code === 0x2b || code === 0x2a) after = at + 1; // - + *
  else {
    while (after < end && after - at < 9 && isDigit(text.charCodeAt(after))) after++;
    if (after === at) return -1;
    const delimiter = text.charCodeAt(after);
    if (delimiter !== 0x2e && delimiter !== 0x29) return -1; // . )
    after++;
  }
  return after === end || isBlank(text.charCodeAt(after)) ? after : -1;
}

/** Whether the line from `at` to `end` is a thematic break: 3 or more of one of `-*_`, blanks. */
function isThematicBreak(text: string, at: number, end: number): boolean {
  const marker = text.charCodeAt(at);
  let count = 0;
  for (let index = at; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code === marker) count++;
    else if (!isBlank(code)) return false;
  }
  return count >= 3 && (marker === 0x2d || marker === 0x2a || marker === 0x5f);
}

/** A space or a tab (a line handed to these helpers holds no line feed). */
function isBlank(code: number): boolean {
  return code === SPACE || code === TAB;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}
