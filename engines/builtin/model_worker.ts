/**
 * The built-in engine's model worker: loads models and runs every encode, generate step and
 * decode on its own thread, so the service's event loop (health, pass-through frames, other
 * engines) never waits on model compute. Started by `model_worker_client.ts`, one per process.
 */
/// <reference lib="deno.worker" />
import { EngineUnavailableError } from "../engine.ts";
import type { WorkerAnswer, WorkerFailure, WorkerRequest } from "./model_worker_protocol.ts";
import type { TranslationModel } from "./translation_model.ts";

// transformers.js' bundled onnxruntime-web resolves its own URL against `location.origin`, which
// is "null" in a worker started from a file and makes the import throw; this worker runs the
// native onnxruntime-node backend and has no use for a location.
Object.defineProperty(globalThis, "location", { value: undefined, configurable: true });
const runtime = () => import("./model_runtime.ts");

const models = new Map<string, TranslationModel>();
const running = new Map<number, AbortController>();

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  if (request.type === "abort") {
    running.get(request.call)?.abort();
    return;
  }
  let answer: WorkerAnswer;
  try {
    answer = { call: request.call, ok: true, items: await serve(request) };
  } catch (error) {
    answer = { call: request.call, ok: false, failure: failureOf(error) };
  }
  self.postMessage(answer);
};

async function serve(request: Exclude<WorkerRequest, { type: "abort" }>) {
  const { loadTranslationModel, translateWithModel } = await runtime();
  switch (request.type) {
    case "load": {
      const model = await loadTranslationModel(request.installed, {
        maxInputTokens: request.maxInputTokens,
      });
      models.set(request.key, model);
      return undefined;
    }
    case "translate": {
      const model = models.get(request.key);
      if (!model) throw new Error(`model ${request.key} is not loaded in the worker`);
      const controller = new AbortController();
      running.set(request.call, controller);
      try {
        return await translateWithModel(model, request.job, controller.signal);
      } finally {
        running.delete(request.call);
      }
    }
    case "unload": {
      const model = models.get(request.key);
      models.delete(request.key);
      await model?.dispose();
      return undefined;
    }
  }
}

function failureOf(error: unknown): WorkerFailure {
  if (error instanceof EngineUnavailableError) return { kind: "refused", message: error.reason };
  if (error instanceof DOMException && error.name === "AbortError") {
    return { kind: "aborted", message: error.message };
  }
  return { kind: "error", message: error instanceof Error ? error.message : String(error) };
}
