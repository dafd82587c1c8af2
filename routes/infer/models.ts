/**
 * GET /v1/models — the one active model; GET /v1/models/{model} — that model, as OpenAI's
 * "retrieve model" gives it (`client.models.retrieve(id)`), or 404 for any other id.
 */
import { Hono } from "hono";
import { inferenceError } from "../../errors/inference_errors.ts";
import type { InferenceRuntime } from "../../inference/generation.ts";
import { modelEntry } from "../../inference/openai_adapter.ts";
import type { ModelList, OpenAiModel } from "../../schemas/openai.ts";

/** What the models route reads. */
export interface ModelsRouteDeps {
  runtime: Pick<InferenceRuntime, "state">;
}

/** The models sub-app. */
export function modelsRoute(deps: ModelsRouteDeps) {
  return new Hono()
    .get("/", (c) => {
      const body: ModelList = { object: "list", data: [modelEntry(deps.runtime.state)] };
      return c.json(body);
    })
    .get("/:model{.+}", (c) => {
      const model = c.req.param("model");
      const entry: OpenAiModel = modelEntry(deps.runtime.state);
      if (model !== entry.id) {
        throw inferenceError(
          "not_found",
          `no model '${model}' here: this daemon serves '${entry.id}'`,
          {
            param: "model",
          },
        );
      }
      return c.json(entry);
    });
}
