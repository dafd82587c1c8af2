/**
 * Per-engine request queue: a bounded number of jobs run at once, waiting jobs of different owners
 * (one WebSocket connection, one HTTP request) take turns, and a job is only queued when it can be
 * expected to start within a wait budget.
 *
 * Why a time budget and not only a length: a WebSocket client's replies are released in request
 * order, so every frame sent after an engine frame waits for it. With 32 waiting jobs of ~20 ms,
 * the 4th frame of each of 200 clients waited ~0.7 s behind the queue (BENCHMARKS.md); answering
 * at once "busy, retry in 1 s" keeps the connection's other replies flowing.
 */
import type { EngineId } from "../schemas/languages.ts";

/**
 * The engine cannot take the job now (its queue is full, or the job would wait longer than the
 * queue's budget); the client should retry after `retryAfterSeconds`.
 */
export class EngineBusyError extends Error {
  override name = "EngineBusyError";
  constructor(readonly engine: EngineId, readonly retryAfterSeconds: number) {
    super(`${engine} is busy: too many jobs are ahead, retry in ${retryAfterSeconds} s`);
  }
}

/**
 * A running job's hold on its slot. A job that must wait for something other than its engine's
 * work (a backend's `Retry-After`, up to 60 s) gives the slot up meanwhile: the jobs behind it
 * would otherwise wait that long for nothing, and the next one may find the backend free.
 */
export interface QueueSlot {
  /** Runs `wait` without the slot, and takes it back (ahead of jobs not yet started) after. */
  away<T>(wait: () => Promise<T>): Promise<T>;
}

/** Options of {@link EngineQueue}. */
export interface EngineQueueOptions {
  /** Jobs running at once (a CPU-bound local model wants 1). */
  concurrency?: number;
  /** Jobs allowed to wait at most, whatever their owners; one more is refused. */
  maxWaiting?: number;
  /**
   * Longest expected wait before a job starts, in ms, when jobs of other owners are ahead of it;
   * a job expected to wait longer is refused at once. Infinity: only `maxWaiting` bounds the queue.
   */
  waitBudgetMs?: number;
  /**
   * A job with fewer than this many jobs ahead of it is queued whatever the estimate, so a slow
   * model (a second per job) still queues a few requests instead of refusing the third.
   */
  minWaiting?: number;
  /** Smallest Retry-After hint for refused jobs, in seconds. */
  retryAfterSeconds?: number;
  /** Clock in ms (tests pass a manual one); default `Date.now`. */
  now?: () => number;
}

/** Options of {@link EngineQueue.run}. */
export interface RunOptions {
  /** Aborted when the job's client left: a job still waiting leaves the queue at once. */
  signal?: AbortSignal;
}

/** Job durations the estimate is the median of. */
const DURATION_SAMPLES = 16;

/**
 * A gate in front of one engine. Waiting jobs are grouped by owner and the free slot goes to the
 * owners round-robin, oldest owner first: a connection that pipelines 30 jobs waits its turn
 * behind one job of each other connection instead of starving them (FIFO within an owner).
 *
 * Admission, when no slot is free: a job is refused with {@link EngineBusyError} when
 * `maxWaiting` jobs already wait, or when jobs of other owners are ahead of it, at least
 * `minWaiting` jobs are, and (jobs ahead + 1) × the median of the last 16 job durations ÷
 * `concurrency` exceeds `waitBudgetMs`. A job with only its own owner's jobs ahead is never
 * refused by the budget: a connection alone gets every answer, however much it pipelines. Owners
 * with more jobs waiting have more jobs ahead of their next one, so they are refused first.
 */
export class EngineQueue {
  readonly #engine: EngineId;
  readonly #concurrency: number;
  readonly #maxWaiting: number;
  readonly #waitBudgetMs: number;
  readonly #minWaiting: number;
  readonly #retryAfterSeconds: number;
  readonly #now: () => number;
  /** Waiters per owner; Map order is the round-robin order (an owner served moves to the end). */
  readonly #waiting = new Map<unknown, Array<() => void>>();
  /** Jobs back from a wait ({@link QueueSlot.away}) for a slot: served before any waiter. */
  readonly #returning: Array<() => void> = [];
  #waitingCount = 0;
  #running = 0;
  readonly #durations: number[] = [];
  #nextDuration = 0;
  /**
   * One refusal per Retry-After value, thrown again and again: building an Error costs 2–4 µs in
   * Deno, and a loaded queue refuses thousands of jobs a second. It carries no request's data.
   */
  readonly #refusals = new Map<number, EngineBusyError>();
  /** Median of {@link #durations}; 0 until a job finished (nothing known: nothing refused). */
  #typicalMs = 0;

  /** @throws {RangeError} when concurrency is below 1 or maxWaiting below 0. */
  constructor(engine: EngineId, options: EngineQueueOptions = {}) {
    this.#engine = engine;
    this.#concurrency = options.concurrency ?? 1;
    this.#maxWaiting = options.maxWaiting ?? 64;
    this.#waitBudgetMs = options.waitBudgetMs ?? Infinity;
    this.#minWaiting = options.minWaiting ?? 0;
    this.#retryAfterSeconds = options.retryAfterSeconds ?? 1;
    this.#now = options.now ?? Date.now;
    if (this.#concurrency < 1 || this.#maxWaiting < 0) {
      throw new RangeError("EngineQueue needs concurrency >= 1 and maxWaiting >= 0");
    }
  }

  /**
   * Runs `task` when a slot is free and it is `owner`'s turn. Without an owner the job is its
   * own owner (plain FIFO among such jobs).
   *
   * @throws {EngineBusyError} at once when the job may not wait (see the class).
   * @throws the reason of `options.signal` when it aborts while the job waits.
   */
  async run<T>(
    task: (slot: QueueSlot) => Promise<T>,
    owner: unknown = Symbol(),
    options: RunOptions = {},
  ): Promise<T> {
    if (this.#running >= this.#concurrency) {
      this.#admit(owner);
      await this.#wait(owner, options.signal);
    } else {
      this.#running++;
    }
    const started = this.#now();
    let away = 0;
    const slot: QueueSlot = {
      away: async (wait) => {
        const left = this.#now();
        this.#release();
        try {
          return await wait();
        } finally {
          await this.#return();
          away += this.#now() - left;
        }
      },
    };
    try {
      return await task(slot);
    } finally {
      this.#record(this.#now() - started - away);
      this.#release();
    }
  }

  /** Gives a slot up: to a job coming back from a wait first, else to the next waiter. */
  #release(): void {
    const next = this.#returning.shift() ?? this.#dequeue();
    // The slot passes straight to the next waiter, so the running count stays the same.
    if (next) next();
    else this.#running--;
  }

  /** Takes a slot again after a wait, ahead of every job not yet started (never refused). */
  async #return(): Promise<void> {
    if (this.#running < this.#concurrency) {
      this.#running++;
      return;
    }
    await new Promise<void>((resolve) => this.#returning.push(resolve));
  }

  /** @throws {EngineBusyError} when `owner`'s next job may not wait. */
  #admit(owner: unknown): void {
    if (this.#waitingCount >= this.#maxWaiting) this.#refuse(this.#estimateMs(this.#waitingCount));
    if (this.#waitBudgetMs === Infinity) return;
    const own = this.#waiting.get(owner)?.length ?? 0;
    const ahead = this.#jobsAhead(owner, own);
    if (ahead === own || ahead < this.#minWaiting) return;
    const expectedMs = this.#estimateMs(ahead);
    if (expectedMs > this.#waitBudgetMs) this.#refuse(expectedMs);
  }

  #refuse(expectedMs: number): never {
    const seconds = Math.max(this.#retryAfterSeconds, Math.ceil(expectedMs / 1000));
    let refusal = this.#refusals.get(seconds);
    if (!refusal) {
      if (this.#refusals.size >= 64) this.#refusals.clear();
      refusal = new EngineBusyError(this.#engine, seconds);
      this.#refusals.set(seconds, refusal);
    }
    throw refusal;
  }

  /** Expected wait before a job with `ahead` jobs in front of it starts (the running ones too). */
  #estimateMs(ahead: number): number {
    return ((ahead + 1) * this.#typicalMs) / this.#concurrency;
  }

  /**
   * Jobs that start before `owner`'s next one under round-robin: its own `own` waiting jobs, and
   * from every other owner one per round up to that job's round (one more round for owners
   * before it in the line).
   */
  #jobsAhead(owner: unknown, own: number): number {
    let ahead = own;
    let before = true;
    for (const [other, waiters] of this.#waiting) {
      if (other === owner) {
        before = false;
        continue;
      }
      ahead += Math.min(waiters.length, before ? own + 1 : own);
    }
    return ahead;
  }

  #record(durationMs: number): void {
    this.#durations[this.#nextDuration] = durationMs;
    this.#nextDuration = (this.#nextDuration + 1) % DURATION_SAMPLES;
    const sorted = this.#durations.toSorted((a, b) => a - b);
    this.#typicalMs = sorted[sorted.length >> 1];
  }

  /**
   * Waits for `owner`'s turn. A job whose client left gives its place up at once: a closed
   * WebSocket's frames would otherwise count against `maxWaiting` and the budget of every other
   * client until the job ahead of them (an LLM's, possibly minutes) ended.
   */
  #wait(owner: unknown, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (!signal) return this.#enqueue(owner, resolve);
      if (signal.aborted) return reject(signal.reason);
      const withdraw = () => {
        if (this.#withdraw(owner, turn)) reject(signal.reason);
      };
      const turn = () => {
        signal.removeEventListener("abort", withdraw);
        resolve();
      };
      signal.addEventListener("abort", withdraw, { once: true });
      this.#enqueue(owner, turn);
    });
  }

  /** Takes a waiter out of the line; false when it was given its slot already. */
  #withdraw(owner: unknown, waiter: () => void): boolean {
    const waiters = this.#waiting.get(owner);
    const index = waiters?.indexOf(waiter) ?? -1;
    if (!waiters || index === -1) return false;
    waiters.splice(index, 1);
    if (waiters.length === 0) this.#waiting.delete(owner);
    this.#waitingCount--;
    return true;
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
