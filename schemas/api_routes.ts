/**
 * The route table of `tolk serve`: every `/v1` method and path with its request, answers, errors
 * and examples. `GET /v1/openapi.json` is generated from it, and a test fails when the app
 * serves a `/v1` route this table lacks (or lists one the app does not serve).
 *
 * To add routes: put their entries in a file of their family beside this one
 * (`history_routes.ts`, `compat_routes.ts`…) and spread it below.
 */
import type { ApiRoute } from "./api_route.ts";
import { GLOSSARY_ROUTES } from "./glossary_routes.ts";
import { HISTORY_ROUTES } from "./history_routes.ts";
import { COMPAT_ROUTES } from "./compat_routes.ts";
import { DEEPL_GLOSSARY_ROUTES } from "./deepl_glossary_routes.ts";
import { MEMORY_ROUTES } from "./memory_routes.ts";
import { TRANSLATION_ROUTES } from "./translation_routes.ts";

/** Every documented `/v1` route, grouped by family. */
export const API_ROUTES: readonly ApiRoute[] = [
  ...TRANSLATION_ROUTES,
  ...HISTORY_ROUTES,
  ...GLOSSARY_ROUTES,
  ...COMPAT_ROUTES,
  ...MEMORY_ROUTES,
];

/**
 * The routes that read or write the data directory's stores (history, glossaries, memory, DeepL's
 * glossaries): a service built without stores serves none of them.
 */
const DATA_ROUTES: ReadonlySet<ApiRoute> = new Set([
  ...HISTORY_ROUTES,
  ...GLOSSARY_ROUTES,
  ...DEEPL_GLOSSARY_ROUTES,
  ...MEMORY_ROUTES,
]);

/**
 * The documented routes of a service with or without its data stores, so that the document never
 * lists a path the service answers with 404.
 *
 * @example
 * ```ts
 * openApiRoute({ routes: servedApiRoutes({ stores: deps.stores !== undefined }) });
 * ```
 */
export function servedApiRoutes(registered: { stores: boolean }): readonly ApiRoute[] {
  return registered.stores ? API_ROUTES : API_ROUTES.filter((route) => !DATA_ROUTES.has(route));
}
