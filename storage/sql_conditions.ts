/**
 * The `where` clause of a filtered list (history, memory): each filter the query sets adds its
 * condition and its `?` values together, so a clause and its parameters cannot drift apart.
 */

/** A value bound to a `?` of a condition. */
export type SqlValue = string | number;

/** Conditions joined with `and`; none gives no `where` at all. */
export class SqlConditions {
  readonly #clauses: string[] = [];
  readonly #values: SqlValue[] = [];

  /**
   * Adds `clause` when `value` is set (not undefined, null or ""), with `value` bound to each of
   * its `?`s (`(source like ? or target like ?)` searches one pattern in two columns).
   */
  addIf(value: SqlValue | null | undefined, clause: string): this {
    if (value === undefined || value === null || value === "") return this;
    this.#clauses.push(clause);
    for (let at = clause.indexOf("?"); at !== -1; at = clause.indexOf("?", at + 1)) {
      this.#values.push(value);
    }
    return this;
  }

  /** `where a and b`, or the empty string when no condition was added. */
  get sql(): string {
    return this.#clauses.length ? `where ${this.#clauses.join(" and ")}` : "";
  }

  /** The values of the `?`s, in the order of {@link sql}. */
  get values(): readonly SqlValue[] {
    return this.#values;
  }
}
