/**
 * The one wrapper around `zValidator("json", …)`: failures throw through the service's error
 * factory instead of Hono's default 400 body.
 */
import { isUtf8 } from "node:buffer";
import { zValidator } from "@hono/zod-validator";
import type { z } from "zod";
import { requireIdentityCoding } from "./content_coding.ts";

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
  /** Builds the error for a JSON body that is not UTF-8. */
  notUtf8: () => Error;
  /** Builds the error for a body sent with a Content-Encoding (`./content_coding.ts`). */
  compressed: (coding: string) => Error;
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
  const validate = zValidator("json", schema, (result, c) => {
    if (!isJson(c.req.header("content-type"))) throw options.notJson();
    if (!result.success) throw options.invalid(result.error.issues);
  });
  // The bytes are read (and kept: Hono parses the JSON from them) and checked first.
  const checked: typeof validate = async (c, next) => {
    requireIdentityCoding(c.req.header("content-encoding"), options.compressed);
    if (isJson(c.req.header("content-type"))) {
      // Not UTF-8: decoding would replace each bad byte with U+FFFD, losing text unseen. A check
      // without decoding (the JSON parse decodes them once).
      if (!isUtf8(new Uint8Array(await c.req.arrayBuffer()))) throw options.notUtf8();
    }
    return await validate(c, next);
  };
  return checked;
}

function isJson(contentType: string | undefined): boolean {
  return JSON_MEDIA_TYPE.test((contentType ?? "").split(";")[0].trim());
}
