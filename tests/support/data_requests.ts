/**
 * Token-carrying requests to the data routes (history, glossaries, memory) of a test service.
 */
import type { TestService } from "./translation_service.ts";

/** A request to `path` with the service's token; a non-string body is sent as JSON. */
export function dataRequest(
  service: TestService,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const json = body !== undefined && typeof body !== "string";
  return fetch(`${service.url}${path}`, {
    method,
    headers: {
      "x-svc-token": service.token,
      ...(json ? { "content-type": "application/json" } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : json ? JSON.stringify(body) : body as string,
  });
}
