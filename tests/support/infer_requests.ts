/** Requests to a `tolk infer` daemon and checks of its OpenAI-shaped answers, for the tests. */
import assert from "node:assert/strict";
import { ErrorBodySchema } from "../../schemas/openai.ts";

/** The shortest conversation. */
export const HI = [{ role: "user" as const, content: "hi" }];

/** Posts a body (a string as it is, else its JSON) to /v1/chat/completions. */
export function postChat(
  baseUrl: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${baseUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/**
 * Asserts an error response's status, code and, when given, param (null: none), and that it
 * carries x-request-id; resolves to its body.
 */
export async function assertInferError(
  response: Response,
  status: number,
  code: string,
  param?: string | null,
) {
  const body = ErrorBodySchema.parse(await response.json());
  assert.equal(response.status, status, JSON.stringify(body));
  assert.equal(body.error.code, code);
  if (param !== undefined) assert.equal(body.error.param, param);
  assert.ok(response.headers.get("x-request-id"), "errors carry x-request-id");
  return body;
}
