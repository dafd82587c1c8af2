/**
 * Assertions on real HTTP responses: bodies are parsed with the contract's own schemas.
 */
import assert from "node:assert/strict";
import type { z } from "zod";
import { ErrorResponseSchema } from "../../schemas/translation.ts";

/** Asserts the status and returns the body parsed by `schema`. */
export async function expectBody<S extends z.ZodType>(
  response: Response,
  status: number,
  schema: S,
): Promise<z.infer<S>> {
  const text = await response.text();
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${text}`);
  const parsed = schema.safeParse(JSON.parse(text));
  assert.ok(parsed.success, `body does not match the schema: ${text}\n${parsed.error}`);
  return parsed.data;
}

/** Asserts an ErrorResponse with this status, code and param. */
export async function expectError(
  response: Response,
  status: number,
  code: string,
  param: string | null = null,
): Promise<z.infer<typeof ErrorResponseSchema>> {
  const body = await expectBody(response, status, ErrorResponseSchema);
  assert.equal(body.error.code, code, JSON.stringify(body));
  assert.equal(body.error.param ?? null, param, JSON.stringify(body));
  assert.match(response.headers.get("x-request-id") ?? "", /^[A-Za-z0-9._-]{1,128}$/);
  return body;
}

/** A JSON POST with the token header. */
export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    // A stream goes as it is: `fetch` sends it chunked, without Content-Length.
    body: typeof body === "string" || body instanceof ReadableStream ? body : JSON.stringify(body),
  });
}
