/**
 * The messages between the built-in engine (`model_worker_client.ts`) and its model worker
 * (`model_worker.ts`). Every request carries a call number; every answer names the call it ends.
 * A loaded model is named by a key the client chooses (its folder and input window).
 */
import type { InstalledModel } from "../../models/model_store.ts";
import type { TranslatedItem } from "../engine.ts";
import type { ModelJob } from "./model_translation.ts";

/** What the engine asks of the worker. */
export type WorkerRequest =
  | { type: "load"; call: number; key: string; installed: InstalledModel; maxInputTokens: number }
  | { type: "translate"; call: number; key: string; job: ModelJob }
  /** Stops the translate call `call` at its next step (it then fails as `aborted`). */
  | { type: "abort"; call: number }
  /** Releases the model's ONNX sessions. */
  | { type: "unload"; call: number; key: string };

/** Why a call failed, in a form that crosses the worker boundary. */
export interface WorkerFailure {
  /** `refused`: the model cannot do the job (EngineUnavailableError); `aborted`: stopped on request. */
  kind: "refused" | "aborted" | "error";
  /** The reason (`refused`) or the error's message. */
  message: string;
}

/** The worker's answer to one call. */
export type WorkerAnswer =
  | { call: number; ok: true; items?: TranslatedItem[] }
  | { call: number; ok: false; failure: WorkerFailure };
