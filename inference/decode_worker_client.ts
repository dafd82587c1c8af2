/**
 * The event loop's side of the decode worker (decode_worker.ts): starts it on the context made
 * here, hands it generations and cancellations, and turns its events back into each generation's
 * text callbacks and result.
 */
import type { DecodeJob, DecodeResult } from "./decode_job.ts";
import {
  type FromDecodeWorker,
  TEXT_INTERVAL_MS,
  type ToDecodeWorker,
} from "./decode_worker_protocol.ts";
import type { GenerateOptions } from "./generation.ts";
import type { LlamaNative, NativeModel } from "./llama_native.ts";
import type { NativeContext } from "./native_context.ts";

/** Options of {@link DecodeWorker.start}. */
export interface DecodeWorkerOptions {
  native: LlamaNative;
  model: NativeModel;
  context: NativeContext;
  sequences: number;
  /**
   * Called once when the worker dies of an error on its thread: every generation in it has
   * failed by then and later ones fail at once.
   */
  onDeath?: (reason: string) => void;
  /** The worker's module; default decode_worker.ts (a test names one that cannot load). */
  url?: URL;
  /**
   * Milliseconds streamed text may wait to leave with later tokens (default
   * {@link TEXT_INTERVAL_MS}).
   */
  textIntervalMs?: number;
}

interface Running {
  onText?: GenerateOptions["onText"];
  resolve(result: DecodeResult): void;
  reject(error: Error): void;
}

const WORKER_URL = new URL("./decode_worker.ts", import.meta.url);

/** The running decode worker. */
export class DecodeWorker {
  readonly #worker: Worker;
  readonly #mailbox = new Int32Array(new SharedArrayBuffer(4));
  readonly #running = new Map<number, Running>();
  readonly #onDeath?: (reason: string) => void;
  readonly #ready = Promise.withResolvers<void>();
  readonly #closed = Promise.withResolvers<void>();
  #nextId = 1;
  #dead?: string;

  private constructor(options: DecodeWorkerOptions) {
    this.#onDeath = options.onDeath;
    this.#worker = new Worker(options.url ?? WORKER_URL, { type: "module" });
    this.#worker.onmessage = ({ data }: MessageEvent<FromDecodeWorker>) => this.#receive(data);
    this.#worker.onerror = (event) => {
      event.preventDefault(); // handled here: the daemon lives on and says so in /health
      this.#die(event.message || "an uncaught error");
    };
    this.#worker.onmessageerror = () => this.#die("a message it could not read");
    this.#post({
      kind: "init",
      init: {
        addonPath: options.native.addonPath,
        model: options.model.handle,
        context: options.context.handle,
        sequences: options.sequences,
        textIntervalMs: options.textIntervalMs ?? TEXT_INTERVAL_MS,
        mailbox: this.#mailbox.buffer as SharedArrayBuffer,
      },
    });
  }

  /**
   * Starts the worker and waits until it drives the context.
   *
   * @throws {Error} when the worker cannot load or open llama.cpp.
   * @example
   * ```ts
   * const worker = await DecodeWorker.start({ native, model, context, sequences: 4 });
   * ```
   */
  static async start(options: DecodeWorkerOptions): Promise<DecodeWorker> {
    const worker = new DecodeWorker(options);
    await worker.#ready.promise;
    return worker;
  }

  /**
   * Runs one generation to its end; an aborted signal ends it with `abort`.
   *
   * @throws {Error} when llama.cpp fails its step or refuses its grammar, or the worker died.
   */
  generate(job: Omit<DecodeJob, "id">, options: GenerateOptions = {}): Promise<DecodeResult> {
    if (this.#dead) return Promise.reject(this.#deathError());
    const { signal, onText } = options;
    if (signal?.aborted) {
      return Promise.resolve({ text: "", stopReason: "abort", completionTokens: 0 });
    }
    const id = this.#nextId++;
    const cancel = () => this.#post({ kind: "cancel", id });
    signal?.addEventListener("abort", cancel, { once: true });
    const { promise, resolve, reject } = Promise.withResolvers<DecodeResult>();
    this.#running.set(id, { onText, resolve, reject });
    this.#post({ kind: "start", job: { ...job, id }, streamed: onText !== undefined });
    return promise.finally(() => signal?.removeEventListener("abort", cancel));
  }

  /**
   * Ends every generation (`abort`), waits until the worker lets go of the context, stops it.
   *
   * @returns false when the worker had died: its thread may still be inside a step (a worker
   *   ends only when it returns to JavaScript), so the context and weights must not be freed.
   */
  async close(): Promise<boolean> {
    if (this.#dead) return false;
    this.#post({ kind: "close" });
    await this.#closed.promise;
    this.#worker.terminate();
    return !this.#dead;
  }

  #post(message: ToDecodeWorker): void {
    this.#worker.postMessage(message);
    Atomics.add(this.#mailbox, 0, 1);
  }

  #receive(message: FromDecodeWorker): void {
    switch (message.kind) {
      case "ready":
        return this.#ready.resolve();
      case "closed":
        return this.#closed.resolve();
      case "events":
        for (const event of message.events) {
          const running = this.#running.get(event.id);
          if (!running) continue;
          if (event.kind === "text") {
            running.onText?.(event.text, event.logprobs);
            continue;
          }
          this.#running.delete(event.id);
          if (event.kind === "end") running.resolve(event.result);
          else running.reject(new Error(event.reason));
        }
    }
  }

  #die(reason: string): void {
    if (this.#dead) return;
    this.#dead = reason;
    const error = this.#deathError();
    for (const running of this.#running.values()) running.reject(error);
    this.#running.clear();
    this.#ready.reject(error);
    this.#ready.promise.catch(() => {}); // start() may have returned long ago
    this.#closed.resolve();
    this.#worker.terminate();
    this.#onDeath?.(reason);
  }

  #deathError(): Error {
    return new Error(`the decode worker stopped: ${this.#dead}`);
  }
}
