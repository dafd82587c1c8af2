/**
 * An engine whose backend integration is not built yet: listed, never ready, never called.
 */
import type { EngineId } from "../schemas/languages.ts";
import { type Engine, EngineUnavailableError } from "./engine.ts";

/** Makes an engine that reports `ready: false` and refuses every job. */
export function createPendingEngine(id: EngineId, name: string): Engine {
  return {
    id,
    name,
    status: () => Promise.resolve({ ready: false, models: null }),
    translate: () => {
      throw new EngineUnavailableError(id, "this engine is not available in this build");
    },
  };
}
