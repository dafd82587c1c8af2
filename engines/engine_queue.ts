/**
 * Per-engine request queue: a bounded number of jobs run at once, a bounded number wait.
 */
import type { EngineId } from "../schemas/languages.ts";

/** The engine's queue is full; the client should retry after `retryAfterSeconds`. */
export class EngineBusyError extends Error {
  override name = "EngineBusyError";
  constructor(readonly engine: EngineId, readonly retryAfterSeconds: number) {
    super(`${engine} is busy: its queue is full, retry in ${retryAfterSeconds} s`);
  }
}

/** Options of {@link EngineQueue}. */
export interface EngineQueueOptions {
  /** Jobs running at once (a CPU-bound local model wants 1). */
  concurrency?: number;
  /** Jobs allowed to wait; one more is refused with {@link EngineBusyError}. */
  maxWaiting?: number;
  /** Retry-After hint for refused jobs. */
  retryAfterSeconds?: number;
}

/** A FIFO gate in front of one engine. */
export class EngineQueue {
  readonly #engine: EngineId;
  readonly #concurrency: number;
  readonly #maxWaiting: number;
  readonly #retryAfterSeconds: number;
  readonly #waiting: Array<() => void> = [];
  #running = 0;

  /** @throws {RangeError} when concurrency is below 1 or maxWaiting below 0. */
  constructor(engine: EngineId, options: EngineQueueOptions = {}) {
    this.#engine = engine;
    this.#concurrency = options.concurrency ?? 1;
    this.#maxWaiting = options.maxWaiting ?? 64;
    this.#retryAfterSeconds = options.retryAfterSeconds ?? 1;
    if (this.#concurrency < 1 || this.#maxWaiting < 0) {
      throw new RangeError("EngineQueue needs concurrency >= 1 and maxWaiting >= 0");
    }
  }

  /**
   * Runs `task` when a slot is free.
   *
   * @throws {EngineBusyError} at once when the queue is full.
   */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#concurrency) {
      if (this.#waiting.length >= this.#maxWaiting) {
        throw new EngineBusyError(this.#engine, this.#retryAfterSeconds);
      }
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#running++;
    }
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      // The slot passes straight to the next waiter, so the running count stays the same.
      if (next) next();
      else this.#running--;
    }
  }
}
