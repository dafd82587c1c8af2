/**
 * GET /v1/health — liveness and readiness, no auth.
 */
import { Hono } from "hono";
import type { EnginePipeline } from "../../engines/engine_pipeline.ts";
import { serviceError } from "../../errors/translation_errors.ts";
import type { HealthResponse } from "../../schemas/translation.ts";
import { successJson } from "./success_response.ts";
import { APP_VERSION } from "../../version.ts";

/** What the health route reads. */
export interface HealthRouteDeps {
  pipeline: EnginePipeline;
  startedAt: number;
  /** True once shutdown began: health then answers 503. */
  isShuttingDown: () => boolean;
}

/** The health sub-app. */
export function healthRoute(deps: HealthRouteDeps) {
  return new Hono().get("/", async (c) => {
    if (deps.isShuttingDown()) throw serviceError("engine_unavailable", "the service is stopping");
    const reports = await deps.pipeline.reports();
    const body: HealthResponse = {
      status: "ok",
      app: "tolk",
      version: APP_VERSION,
      api_version: "v1",
      uptime_ms: Math.max(0, Date.now() - deps.startedAt),
      ready: reports.some((report) => report.status.ready),
    };
    return successJson(c, body);
  });
}
