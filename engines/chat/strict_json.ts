/**
 * JSON parsing that does not hide keys written twice. `JSON.parse('{"1":"a","1":"b"}')` keeps
 * the last value and says nothing, so a model that answers one id twice would have one of its
 * answers chosen at random; here such a key maps to {@link DUPLICATED} instead.
 *
 * Pure: no I/O.
 */

/** The value of a key that appears more than once in the same object. */
export const DUPLICATED: unique symbol = Symbol("duplicated key");

/**
 * Parses `text` as `JSON.parse` does, except that in every object a key written more than once
 * maps to {@link DUPLICATED}.
 *
 * @throws {SyntaxError} when `text` is not JSON (the error of `JSON.parse`).
 * @example
 * ```ts
 * parseJsonMarkingDuplicates('{"1": "a", "2": "b", "1": "c"}'); // {"1": DUPLICATED, "2": "b"}
 * ```
 */
export function parseJsonMarkingDuplicates(text: string): unknown {
  // Validated first, so the walk below may assume well-formed JSON and stay short.
  JSON.parse(text);
  let at = 0;

  function skipSpace(): void {
    while (at < text.length && " \t\n\r".includes(text[at])) at++;
  }

  function string(): string {
    const start = at++;
    while (text[at] !== '"') at += text[at] === "\\" ? 2 : 1;
    at++;
    return JSON.parse(text.slice(start, at));
  }

  function value(): unknown {
    skipSpace();
    const first = text[at];
    if (first === '"') return string();
    if (first === "[") return array();
    if (first === "{") return object();
    // A number, true, false or null: everything up to the next delimiter.
    const start = at;
    while (at < text.length && !" \t\n\r,]}".includes(text[at])) at++;
    return JSON.parse(text.slice(start, at));
  }

  /** Reads the members of the array or object opening at `at`, one `member()` call each. */
  function members(member: () => void): void {
    at++;
    skipSpace();
    if (text[at] === "]" || text[at] === "}") {
      at++;
      return;
    }
    do {
      skipSpace();
      member();
      skipSpace();
    } while (text[at++] === ",");
  }

  function array(): unknown[] {
    const items: unknown[] = [];
    members(() => items.push(value()));
    return items;
  }

  function object(): Record<string, unknown> {
    // No prototype: a "__proto__" key is an own key, as JSON.parse makes it.
    const entries: Record<string, unknown> = Object.create(null);
    members(() => {
      const key = string();
      skipSpace();
      at++; // the colon
      const item = value();
      entries[key] = Object.hasOwn(entries, key) ? DUPLICATED : item;
    });
    return entries;
  }

  return value();
}
