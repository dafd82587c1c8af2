/**
 * Repairs of the near-JSON small models write when a server does not hold them to the schema,
 * each one that a model repeats at temperature 0 on every retry: commas before a closing bracket
 * (`{"1": "Hi",}`), Python-style single quotes (`{'1': 'Hi'}`, what printing a dict gives), and
 * a bare list of the translations in order instead of the object of ids. Tried only on an answer
 * that is not JSON as it is (or not in the requested shape); what stays doubtful is no answer
 * and asked again.
 *
 * Pure: no I/O.
 */

/**
 * The repaired forms of `text` worth trying, in order, when it is not JSON: without trailing
 * commas, then with double quotes, then with both.
 *
 * @example
 * ```ts
 * [...jsonRepairs("{'1': 'Hi',}")]; // ['{\'1\': \'Hi\'}', '{"1": "Hi",}', '{"1": "Hi"}']
 * ```
 */
export function* jsonRepairs(text: string): Generator<string> {
  yield withoutTrailingCommas(text);
  if (!text.includes("'")) return;
  const doubled = withDoubleQuotes(text);
  yield doubled;
  yield withoutTrailingCommas(doubled);
}

/**
 * `text` without the commas before a `}` or `]` that small models write (`{"1": "Hi",}`).
 * Commas inside strings stay.
 */
export function withoutTrailingCommas(text: string): string {
  const closing = /\s*[}\]]/y;
  let out = "";
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (inString) {
      if (char === "\\") out += text[at++];
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === ",") {
      closing.lastIndex = at + 1;
      if (closing.test(text)) continue;
    }
    out += text[at];
  }
  return out;
}

/** What may follow a string's closing quote in JSON: a string of the answer ends before it. */
const AFTER_STRING = /\s*(?:[,:}\]]|$)/y;

/**
 * `text` with its single-quoted strings written as JSON strings (`'Say "hi"'` is `"Say \"hi\""`,
 * `'It\'s'` is `"It's"`); double-quoted strings stay as written. A `'` inside a single-quoted
 * string that JSON punctuation does not follow is an apostrophe the model left unescaped
 * (`'l'homme'`), part of the text.
 */
export function withDoubleQuotes(text: string): string {
  let out = "";
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === '"') {
      const end = stringEnd(text, at);
      out += text.slice(at, end);
      at = end - 1;
    } else if (char === "'") {
      out += '"';
      for (at++; at < text.length; at++) {
        const inner = text[at];
        if (inner === "\\" && text[at + 1] === "'") out += text[++at];
        else if (inner === "\\") out += inner + (text[++at] ?? "");
        else if (inner === '"') out += '\\"';
        else if (inner === "'" && closesString(text, at + 1)) break;
        else out += inner;
      }
      out += '"';
    } else out += char;
  }
  return out;
}

/** Whether JSON punctuation (or the end) follows at `at`, as after a string's closing quote. */
function closesString(text: string, at: number): boolean {
  AFTER_STRING.lastIndex = at;
  return AFTER_STRING.test(text);
}

/** Where the double-quoted string opening at `start` ends (after its quote), or the text's end. */
function stringEnd(text: string, start: number): number {
  for (let at = start + 1; at < text.length; at++) {
    if (text[at] === "\\") at++;
    else if (text[at] === '"') return at + 1;
  }
  return text.length;
}

/** The one key of a wrapper object around a list of translations. */
const LIST_KEY = /^(translations|items|results|data)$/i;

/**
 * `json` as the object of ids when it is a list of exactly as many strings as `ids` (bare, or
 * `{"translations": […]}`): the model kept the order and dropped the ids. A list of any other
 * length cannot say which text a translation is for, and stays as it is (no answer).
 */
export function keyedByPosition(json: unknown, ids: readonly string[]): unknown {
  let list = json;
  if (typeof json === "object" && json !== null && !Array.isArray(json)) {
    const keys = Object.keys(json);
    if (keys.length === 1 && LIST_KEY.test(keys[0])) {
      list = (json as Record<string, unknown>)[keys[0]];
    }
  }
  if (
    !Array.isArray(list) || list.length !== ids.length ||
    !list.every((item) => typeof item === "string")
  ) {
    return json;
  }
  return Object.fromEntries(ids.map((id, index) => [id, list[index]]));
}
