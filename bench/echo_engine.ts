/**
 * A bench-only engine that echoes each item, so a benchmark measures the service, not a model.
 */
import type { Engine } from "../engines/engine.ts";

/** Returns every item unchanged with confidence 1. */
export function createEchoEngine(): Engine {
  return {
    id: "local-llm",
    name: "Bench echo engine",
    status: () =>
      Promise.resolve({ ready: true, models: [{ id: "echo", name: "echo", ready: true }] }),
    translate: (job) =>
      Promise.resolve({
        model: "echo",
        items: job.items.map((item) => ({ text: item.text, confidence: 1, alternatives: [] })),
      }),
  };
}
