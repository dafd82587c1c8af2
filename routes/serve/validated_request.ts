/**
 * The request validators of `tolk serve`'s routes: the JSON body or the query checked by a zod
 * schema, a refusal thrown through the service's error factory. The one place that binds the
 * generic validators (`middleware/`) to this service's errors.
 */
import type { z } from "zod";
import { errorFromIssues, JSON_BODY_ERRORS } from "../../errors/translation_errors.ts";
import { jsonBody } from "../../middleware/json_body.ts";
import { queryParams } from "../../middleware/query_params.ts";

/**
 * Validates the JSON body with `schema`; the handler reads it typed with `c.req.valid("json")`.
 *
 * @example
 * ```ts
 * new Hono().post("/", validJson(DetectRequestSchema), (c) => c.json(c.req.valid("json")));
 * ```
 */
export function validJson<S extends z.ZodType>(schema: S) {
  return jsonBody(schema, JSON_BODY_ERRORS);
}

/** Validates the query with `schema`; the handler reads it typed with `c.req.valid("query")`. */
export function validQuery<S extends z.ZodType>(schema: S) {
  return queryParams(schema, errorFromIssues);
}
