/**
 * The one wrapper around `zValidator("json", …)`: failures throw through the service's error
 * factory instead of Hono's default 400 body.
 */
import { zValidator } from "@hono/zod-validator";
import type { z } from "zod";

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/** Options of {@link jsonBody}. */
export interface JsonBodyOptions {
  /** Builds the error for a body the schema refuses. */
  invalid: (issues: readonly z.core.$ZodIssue[]) => Error;
  /**
   * Builds the error for a request whose Content-Type is not JSON. Hono parses the body only for
   * a JSON Content-Type and would otherwise validate `{}`; we refuse the request instead.
   */
  notJson: () => Error;
}

/**
 * Validates the JSON body with `schema`; the handler reads it with `c.req.valid("json")`.
 *
 * @example
 * ```ts
 * app.post("/", jsonBody(TranslateRequestSchema, { invalid, notJson }), (c) => …);
 * ```
 */
export function jsonBody<S extends z.ZodType>(schema: S, options: JsonBodyOptions) {
  return zValidator("json", schema, (result, c) => {
    const mediaType = (c.req.header("content-type") ?? "").split(";")[0].trim();
    if (!JSON_MEDIA_TYPE.test(mediaType)) throw options.notJson();
    if (!result.success) throw options.invalid(result.error.issues);
  });
}
