/**
 * GET /health — readiness without auth: 200 `ok` once the model is loaded, 503 `loading` or
 * `error` before that.
 */
import { Hono } from "hono";
import type { InferenceRuntime } from "../../inference/generation.ts";
import type { Health } from "../../schemas/openai.ts";
import { APP_VERSION } from "../../version.ts";

/** What the health route reads. */
export interface HealthRouteDeps {
  runtime: Pick<InferenceRuntime, "state">;
}

/** The health sub-app. */
export function healthRoute(deps: HealthRouteDeps) {
  return new Hono().get("/", (c) => {
    const { phase } = deps.runtime.state;
    const body: Health = { status: phase === "ready" ? "ok" : phase, version: APP_VERSION };
    return c.json(body, phase === "ready" ? 200 : 503);
  });
}
