/**
 * The frame work of every WebSocket connection, spread over event-loop turns.
 *
 * A frame's work up to its first real wait (parse, validate, detect, plan, pass-through, history)
 * is synchronous. Started straight from `onmessage`, a turn that delivers one frame from each of
 * 200 connections ran all 200 before the loop looked at its sockets again, and `/v1/health` on
 * another connection waited for the whole batch (p99 0.7 s under `bench:ws`). Here frames wait
 * in one FIFO and each turn starts frames for at most {@link FRAME_WORK_PER_TURN_MS}, then yields
 * with `setImmediate` (after I/O is polled; no 4 ms clamp like nested timers), so every HTTP
 * request and socket gets its turn within a few milliseconds, whatever the load.
 */
import { setImmediate } from "node:timers";

/** Milliseconds of frame work started per event-loop turn before the loop polls I/O again. */
export const FRAME_WORK_PER_TURN_MS = 8;

/** A FIFO of frame work, run a turn's budget at a time. */
export class FrameTurns {
  readonly #budgetMs: number;
  #queue: Array<() => void> = [];
  #head = 0;
  #scheduled = false;

  constructor(budgetMs = FRAME_WORK_PER_TURN_MS) {
    this.#budgetMs = budgetMs;
  }

  /** Frames waiting for their turn. */
  get waiting(): number {
    return this.#queue.length - this.#head;
  }

  /** Runs `work` in its turn and settles as it does. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push(() => {
        try {
          work().then(resolve, reject);
        } catch (error) {
          reject(error);
        }
      });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(this.#turn);
      }
    });
  }

  readonly #turn = () => {
    // Date.now: performance.now is a slower runtime call in Deno, and ms is fine for the budget.
    const until = Date.now() + this.#budgetMs;
    do this.#queue[this.#head++](); while (this.#head < this.#queue.length && Date.now() < until);
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
      this.#scheduled = false;
      return;
    }
    // Drop the finished head now and then, so a queue that never empties does not grow.
    if (this.#head > 1024) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    setImmediate(this.#turn);
  };
}
