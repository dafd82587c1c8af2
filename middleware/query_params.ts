/**
 * The one wrapper around `zValidator("query", …)`: failures throw through the service's error
 * factory.
 */
import { zValidator } from "@hono/zod-validator";
import type { z } from "zod";

/**
 * Validates the query string with `schema`; the handler reads it with `c.req.valid("query")`.
 *
 * @example
 * ```ts
 * app.get("/", queryParams(HistoryQuerySchema, errorFromIssues), (c) => …);
 * ```
 */
export function queryParams<S extends z.ZodType>(
  schema: S,
  invalid: (issues: readonly z.core.$ZodIssue[]) => Error,
) {
  return zValidator("query", schema, (result) => {
    if (!result.success) throw invalid(result.error.issues);
  });
}
