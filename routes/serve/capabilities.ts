/**
 * GET /v1/capabilities — engines, languages, features and limits, no auth.
 */
import { Hono } from "hono";
import type { EnginePipeline } from "../../engines/engine_pipeline.ts";
import type { Features } from "../../schemas/features.ts";
import { LANGUAGE_CODES } from "../../schemas/languages.ts";
import { type CapabilitiesResponse, LIMITS } from "../../schemas/translation.ts";
import { successJson } from "./success_response.ts";
import { APP_VERSION } from "../../version.ts";

/** The capabilities sub-app. */
export function capabilitiesRoute(deps: { pipeline: EnginePipeline; features: Features }) {
  return new Hono().get("/", async (c) => {
    const reports = await deps.pipeline.reports();
    const body: CapabilitiesResponse = {
      app: "tolk",
      version: APP_VERSION,
      api_version: "v1",
      engines: reports.map(({ engine, status }) => ({
        id: engine.id,
        name: engine.name,
        ready: status.ready,
        models: status.models,
      })),
      languages: [...LANGUAGE_CODES],
      features: deps.features,
      limits: { ...LIMITS },
    };
    return successJson(c, body);
  });
}
