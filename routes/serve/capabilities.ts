/**
 * GET /v1/capabilities — engines, languages, features and limits, no auth.
 */
import { Hono } from "hono";
import type { EnginePipeline } from "../../engines/engine_pipeline.ts";
import { LANGUAGE_CODES } from "../../schemas/languages.ts";
import { type CapabilitiesResponse, LIMITS } from "../../schemas/translation.ts";
import { successJson } from "./success_response.ts";
import { APP_VERSION } from "../../version.ts";

/**
 * What works end to end in this build. `offline`: the built-in engine needs no network; html,
 * markdown and glossaries are refused by /translate; memory is not implemented.
 */
export const FEATURES: CapabilitiesResponse["features"] = {
  detect: true,
  batch: true,
  stream: false,
  websocket: true,
  html: false,
  markdown: false,
  glossary: false,
  memory: false,
  offline: true,
};

/** The capabilities sub-app. */
export function capabilitiesRoute(deps: { pipeline: EnginePipeline }) {
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
      features: FEATURES,
      limits: { ...LIMITS },
    };
    return successJson(c, body);
  });
}
