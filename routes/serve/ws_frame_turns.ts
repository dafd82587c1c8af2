/**
 * The frame work of every WebSocket connection, spread over event-loop turns.
 *
 * A frame's work up to its first real wait (parse, validate, detect, plan, pass-through, history)
 * is synchronous. Started straight from `onmessage`, a turn that delivers one frame from each of
 * 200 connections ran all 200 before the loop looked at its sockets again, and `/v1/health` on
 * another connection waited for the whole batch. Here frames wait in one FIFO and each turn
 * starts frames for at most {@link FRAME_WORK_PER_TURN_MS}, then yields.
 *
 * How it yields matters: in Deno 2.9 a `setImmediate` (or `MessageChannel`) turn does not poll
 * sockets. The runtime wakes itself again at once, and tokio's scheduler polls its I/O driver
 * only every 61 ticks, so an HTTP request waited ~60 turns or the whole queue (a loopback fetch
 * behind 600 frames of 1 ms was answered after 547 of them). A timer makes the runtime park, and
 * parking polls I/O; but a timer hop also costs 2–4 ms when nothing is ready, a quarter of the
 * loop at 8 ms turns. So turns chain with `setImmediate` and take a timer hop once
 * {@link IO_POLL_EVERY_MS} have passed since the last one: sockets wait at most that long.
 */
import { setImmediate, setTimeout } from "node:timers";

/** Milliseconds of frame work started per event-loop turn before it yields to other callbacks. */
export const FRAME_WORK_PER_TURN_MS = 8;

/** Longest run of frame turns before the loop is made to poll sockets (a timer hop). */
export const IO_POLL_EVERY_MS = 16;

/** A FIFO of frame work, run a turn's budget at a time. */
export class FrameTurns {
  readonly #budgetMs: number;
  #queue: Array<() => void> = [];
  #head = 0;
  #scheduled = false;
  #lastPoll = Date.now();
  #turnNumber = 0;

  constructor(budgetMs = FRAME_WORK_PER_TURN_MS) {
    this.#budgetMs = budgetMs;
  }

  /**
   * Changes when a new turn starts. Work started in one turn runs in one synchronous stretch in
   * which no new frame can arrive, so what it reads once per turn (the settings) is as fresh for
   * each of its frames as a read per frame.
   */
  get turn(): number {
    return this.#turnNumber;
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
        this.#lastPoll = Date.now();
        setImmediate(this.#turn);
      }
    });
  }

  readonly #turn = () => {
    this.#turnNumber++;
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
    if (Date.now() - this.#lastPoll < IO_POLL_EVERY_MS) {
      setImmediate(this.#turn);
      return;
    }
    setTimeout(() => {
      this.#lastPoll = Date.now();
      this.#turn();
    }, 0);
  };
}
