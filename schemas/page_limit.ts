/**
 * The `limit` query parameter of the paged lists (history, memory).
 */
import { z } from "zod";

/**
 * A page size written in decimal digits, `1..max`, `fallback` when absent. `z.coerce.number()`
 * would read `0x2`, `1e1` and ` 2 ` as numbers (JavaScript's `Number`), so a typo or a client's
 * odd spelling got a page of a size nobody wrote; the digits are checked before the number is.
 * The OpenAPI document still shows an integer with its bounds and default.
 *
 * @example
 * ```ts
 * z.strictObject({ limit: pageLimit(200, 50).describe("Rows per page, 1..200; default 50.") });
 * ```
 */
export function pageLimit(max: number, fallback: number) {
  return z.preprocess(
    (value) => typeof value === "string" && /^-?\d{1,16}$/.test(value) ? Number(value) : value,
    z.int({
      error: (issue) => issue.code === "invalid_type" ? "expected a whole number" : undefined,
    })
      .min(1).max(max).default(fallback),
  );
}
