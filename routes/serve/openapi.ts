/**
 * GET /v1/openapi.json — the API description, no auth, generated once from the route table.
 */
import { Hono } from "hono";
import { ERROR_CODES } from "../../errors/translation_errors.ts";
import type { ApiRoute } from "../../schemas/api_route.ts";
import { APP_VERSION } from "../../version.ts";
import { buildOpenApiDocument } from "./openapi_document.ts";
import { successJson } from "./success_response.ts";

/** The OpenAPI sub-app over `routes` (the service's route table). */
export function openApiRoute(deps: { routes: readonly ApiRoute[] }) {
  const document = buildOpenApiDocument(deps.routes, {
    version: APP_VERSION,
    errorCodes: ERROR_CODES,
  });
  return new Hono().get("/", (c) => successJson(c, document));
}
