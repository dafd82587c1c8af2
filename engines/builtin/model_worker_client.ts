/**
 * The built-in engine's side of the model worker (`model_worker.ts`): one worker per process,
 * started on first use and shared by every built-in engine (settings changes replace the engine,
 * not the thread), each model loaded into it once and unloaded when its last engine closes.
 * A worker that dies fails its calls and is started afresh (models reload) on the next one.
 */
import type { InstalledModel } from "../../models/model_store.ts";
import { EngineUnavailableError, type TranslatedItem } from "../engine.ts";
import type { ModelJob } from "./model_translation.ts";
import type { WorkerAnswer, WorkerFailure, WorkerRequest } from "./model_worker_protocol.ts";

/** A pending call: how to settle it once the worker answers. */
interface PendingCall {
  resolve(items: TranslatedItem[] | undefined): void;
  reject(failure: WorkerFailure): void;
}

/** A model in the worker: its load, and how many engines hold it. */
interface SharedModel {
  load: Promise<void>;
  holders: number;
}

/** Distributes `Omit` over a union, so each request keeps its own fields. */
type WithoutCall<T> = T extends unknown ? Omit<T, "call"> : never;

/** The model worker, as the built-in engines see it. */
export class ModelWorker {
  #worker?: Worker;
  #nextCall = 0;
  readonly #calls = new Map<number, PendingCall>();
  /** Models of the running worker by key (started or done loading). */
  readonly #models = new Map<string, SharedModel>();

  /** The key under which `installed` is loaded with this input window. */
  static keyOf(installed: InstalledModel, maxInputTokens: number): string {
    return `${installed.path}#${maxInputTokens}`;
  }

  /** Whether the model `key` is held in the running worker. */
  has(key: string): boolean {
    return this.#models.has(key);
  }

  /**
   * Loads `installed` into the worker (once, whoever asks) and counts one more holder, who
   * calls {@link release} when done. Returns the model's key.
   *
   * @throws {Error} with the loader's message when the files do not load.
   */
  async acquire(installed: InstalledModel, maxInputTokens: number): Promise<string> {
    const key = ModelWorker.keyOf(installed, maxInputTokens);
    let model = this.#models.get(key);
    if (!model) {
      const load = this.#call({ type: "load", key, installed, maxInputTokens }).then(
        () => {},
        (failure: WorkerFailure) => {
          if (this.#models.get(key) === model) this.#models.delete(key);
          throw new Error(failure.message);
        },
      );
      model = { load, holders: 0 };
      this.#models.set(key, model);
    }
    model.holders++;
    try {
      await model.load;
    } catch (error) {
      model.holders--;
      throw error;
    }
    return key;
  }

  /** One holder of `key` is done with it; the last one unloads it. */
  async release(key: string): Promise<void> {
    const model = this.#models.get(key);
    if (!model || --model.holders > 0) return;
    this.#models.delete(key);
    await this.#call({ type: "unload", key }).catch(() => {});
  }

  /**
   * Translates `job` with the loaded model `key`.
   *
   * @throws {EngineUnavailableError} when the model cannot translate the job's languages.
   * @throws the signal's reason once it is aborted.
   */
  async translate(key: string, job: ModelJob, signal?: AbortSignal): Promise<TranslatedItem[]> {
    signal?.throwIfAborted();
    const { call, answer } = this.#send({ type: "translate", key, job });
    const stop = () => this.#worker?.postMessage({ type: "abort", call } satisfies WorkerRequest);
    signal?.addEventListener("abort", stop, { once: true });
    try {
      return (await answer)!;
    } catch (failure) {
      const { kind, message } = failure as WorkerFailure;
      if (kind === "aborted" && signal?.aborted) throw signal.reason;
      if (kind === "refused") throw new EngineUnavailableError("local-llm", message);
      throw new Error(message);
    } finally {
      signal?.removeEventListener("abort", stop);
    }
  }

  #call(request: WithoutCall<WorkerRequest>): Promise<TranslatedItem[] | undefined> {
    return this.#send(request).answer;
  }

  /** Posts `request` under a new call number; `answer` settles with the worker's answer. */
  #send(request: WithoutCall<WorkerRequest>) {
    const worker = this.#worker ??= this.#start();
    const call = this.#nextCall++;
    const answer = new Promise<TranslatedItem[] | undefined>((resolve, reject) => {
      this.#calls.set(call, { resolve, reject });
    });
    worker.postMessage({ ...request, call } as WorkerRequest);
    return { call, answer };
  }

  #start(): Worker {
    const worker = new Worker(new URL("./model_worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (event: MessageEvent<WorkerAnswer>) => {
      const answer = event.data;
      const pending = this.#calls.get(answer.call);
      this.#calls.delete(answer.call);
      if (answer.ok) pending?.resolve(answer.items);
      else pending?.reject(answer.failure);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      this.#stop({ kind: "error", message: `the model worker stopped: ${event.message}` });
    };
    return worker;
  }

  /** Stops the worker and fails every call still waiting for it. */
  #stop(failure: WorkerFailure): void {
    this.#worker?.terminate();
    this.#worker = undefined;
    this.#models.clear();
    const calls = [...this.#calls.values()];
    this.#calls.clear();
    for (const call of calls) call.reject(failure);
  }
}

let shared: ModelWorker | undefined;

/** The process's model worker (created, not started, on first call). */
export function modelWorker(): ModelWorker {
  return shared ??= new ModelWorker();
}
