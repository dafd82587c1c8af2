/**
 * A fixed number of generation slots, created on first use and reused, handed out first come,
 * first served. The HTTP layer already refuses requests beyond the limit, so a wait here is only
 * the moment between a finished stream and its slot's release.
 */

/** A slot on loan; `release()` gives it back (idempotent). */
export interface SlotLease<T> {
  slot: T;
  release(): void;
}

/** Options of {@link SlotPool}. */
export interface SlotPoolOptions<T> {
  /** Number of slots (≥ 1). */
  size: number;
  /** Makes slot `index` the first time it is needed. */
  create: (index: number) => Promise<T>;
  /** Frees a slot on {@link SlotPool.dispose}. */
  destroy: (slot: T) => void | Promise<void>;
}

/**
 * A pool of lazily created slots.
 *
 * @throws {RangeError} at construction when `size` is not a positive integer.
 * @example
 * ```ts
 * const pool = new SlotPool({ size: 4, create: makeChat, destroy: (chat) => chat.dispose() });
 * const lease = await pool.acquire(signal);
 * try { await use(lease.slot); } finally { lease.release(); }
 * ```
 */
export class SlotPool<T> {
  readonly #options: SlotPoolOptions<T>;
  readonly #idle: T[] = [];
  readonly #all: T[] = [];
  readonly #waiters: Array<(slot: T) => void> = [];
  #creating = 0;

  constructor(options: SlotPoolOptions<T>) {
    if (!Number.isInteger(options.size) || options.size < 1) {
      throw new RangeError(`Cannot make a slot pool of size ${options.size}`);
    }
    this.#options = options;
  }

  /** Slots created so far. */
  get created(): number {
    return this.#all.length;
  }

  /** Creates slots up to `count` ahead of demand (e.g. the first one at load time). */
  async prewarm(count = 1): Promise<void> {
    while (this.#all.length + this.#creating < Math.min(count, this.#options.size)) {
      this.#idle.push(await this.#create());
    }
  }

  /**
   * Waits for a free slot.
   *
   * @throws the signal's reason when `signal` aborts while waiting.
   */
  async acquire(signal?: AbortSignal): Promise<SlotLease<T>> {
    signal?.throwIfAborted();
    const slot = this.#idle.pop() ??
      (this.#all.length + this.#creating < this.#options.size
        ? await this.#create()
        : await this.#wait(signal));
    let released = false;
    return {
      slot,
      release: () => {
        if (released) return;
        released = true;
        this.#giveBack(slot);
      },
    };
  }

  /** Destroys every slot. */
  async dispose(): Promise<void> {
    for (const slot of this.#all.splice(0)) await this.#options.destroy(slot);
    this.#idle.length = 0;
  }

  async #create(): Promise<T> {
    this.#creating++;
    try {
      const slot = await this.#options.create(this.#all.length);
      this.#all.push(slot);
      return slot;
    } finally {
      this.#creating--;
    }
  }

  #wait(signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        const at = this.#waiters.indexOf(take);
        if (at !== -1) this.#waiters.splice(at, 1);
        reject(signal?.reason);
      };
      const take = (slot: T) => {
        signal?.removeEventListener("abort", onAbort);
        resolve(slot);
      };
      this.#waiters.push(take);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  #giveBack(slot: T): void {
    const next = this.#waiters.shift();
    if (next) next(slot);
    else this.#idle.push(slot);
  }
}
