/**
 * GET /v1/status — the daemon, its runtime, the active model (path redacted unless
 * `--expose-model-path`) and the chat completions running and queued.
 */
import { Hono } from "hono";
import type { InferenceRuntime } from "../../inference/generation.ts";
import type { ConcurrencyLoad } from "../../middleware/concurrency_limit.ts";
import { modelEntry } from "../../inference/openai_adapter.ts";
import type { Status } from "../../schemas/openai.ts";
import { APP_VERSION } from "../../version.ts";

/** What the status route reads. */
export interface StatusRouteDeps {
  runtime: Pick<InferenceRuntime, "state">;
  modelPath: string;
  exposeModelPath: boolean;
  /** Epoch seconds of start. */
  startedAt: number;
  /** `http://HOST:PORT`, known once the server listens. */
  endpoint: () => string;
  /** Chat completions running and waiting for a slot now. */
  load: () => ConcurrencyLoad;
}

/** The status sub-app. */
export function statusRoute(deps: StatusRouteDeps) {
  return new Hono().get("/", (c) => {
    const state = deps.runtime.state;
    const body: Status = {
      status: "running",
      version: APP_VERSION,
      endpoint: deps.endpoint(),
      started_at: deps.startedAt,
      runtime: {
        runtime: "llama.cpp",
        model_id: state.modelId,
        backend: state.backend,
        ready: state.phase === "ready",
      },
      active_model: {
        ...modelEntry(state),
        path: deps.exposeModelPath ? deps.modelPath : "<redacted>",
      },
      requests: deps.load(),
    };
    return c.json(body);
  });
}
