/**
 * Per-engine request queue: a bounded number of jobs run at once, a bounded number wait, and
 * waiting jobs of different owners (one WebSocket connection, one HTTP request) take turns.
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

/**
 * A gate in front of one engine. Waiting jobs are grouped by owner and the free slot goes to the
 * owners round-robin, oldest owner first: a connection that pipelines 30 jobs waits its turn
 * behind one job of each other connection instead of starving them (FIFO within an owner).
 */
export class EngineQueue {
  readonly #engine: EngineId;
  readonly #concurrency: number;
  readonly #maxWaiting: number;
  readonly #retryAfterSeconds: number;
  /** Waiters per owner; Map order is the round-robin order (an owner served moves to the end). */
  readonly #waiting = new Map<unknown, Array<() => void>>();
  #waitingCount = 0;
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
   * Runs `task` when a slot is free and it is `owner`'s turn. Without an owner the job is its
   * own owner (plain FIFO among such jobs).
   *
   * @throws {EngineBusyError} at once when the queue is full.
   */
  async run<T>(task: () => Promise<T>, owner: unknown = Symbol()): Promise<T> {
    if (this.#running >= this.#concurrency) {
      if (this.#waitingCount >= this.#maxWaiting) {
        throw new EngineBusyError(this.#engine, this.#retryAfterSeconds);
      }
      await new Promise<void>((resolve) => this.#enqueue(owner, resolve));
    } else {
      this.#running++;
    }
    try {
      return await task();
    } finally {
      const next = this.#dequeue();
      // The slot passes straight to the next waiter, so the running count stays the same.
      if (next) next();
      else this.#running--;
    }
  }

  #enqueue(owner: unknown, resolve: () => void): void {
    const waiters = this.#waiting.get(owner);
    if (waiters) waiters.push(resolve);
    else this.#waiting.set(owner, [resolve]);
    this.#waitingCount++;
  }

  /** The first waiter of the owner whose turn it is; that owner goes to the back of the line. */
  #dequeue(): (() => void) | undefined {
    const first = this.#waiting.entries().next();
    if (first.done) return undefined;
    const [owner, waiters] = first.value;
    const next = waiters.shift()!;
    this.#waiting.delete(owner);
    if (waiters.length > 0) this.#waiting.set(owner, waiters);
    this.#waitingCount--;
    return next;
  }
}
