/**
 * GET /v1/models — the one active model.
 */
import { Hono } from "hono";
import type { InferenceRuntime } from "../../inference/generation.ts";
import { modelEntry } from "../../inference/openai_adapter.ts";
import type { ModelList } from "../../schemas/openai.ts";

/** What the models route reads. */
export interface ModelsRouteDeps {
  runtime: Pick<InferenceRuntime, "state">;
}

/** The models sub-app. */
export function modelsRoute(deps: ModelsRouteDeps) {
  return new Hono().get("/", (c) => {
    const body: ModelList = { object: "list", data: [modelEntry(deps.runtime.state)] };
    return c.json(body);
  });
}
