/**
 * Which failures of a chat request are asked again, and after how long: those that say nothing
 * about the texts and often pass by themselves. Each has a bound, so that a job's whole wait stays
 * within a known multiple of `request_timeout_ms` and the server's own `Retry-After`.
 *
 * - A connection dropped in the middle of the answer, or closed without one (a runner crashing
 *   mid-generation, restarted by its supervisor): once per batch, at once.
 * - A busy answer (429, or 503 with `Retry-After`) once the job has answers to lose: once per
 *   batch, after the server's `Retry-After` (at most 60 s). On the first batch it is passed on
 *   at once (503 with `Retry-After`): nothing is lost, and `auto` may try another engine.
 * - A timeout: once per job, at once. A runner loading its model misses the first request's
 *   timeout and answers the next; a runner too slow for `request_timeout_ms` would make every
 *   batch wait twice.
 */
import { BackendBusyError } from "./backend_refusals.ts";
import { AnswerDroppedError, AnswerTimeoutError } from "./cut_answers.ts";

/** What a job has spent of its second chances. */
export interface JobChances {
  /** A batch has been answered: a busy server would make the job lose its answers. */
  answered: boolean;
  timedOut: boolean;
}

/** What a batch has spent of its second chances. */
export interface BatchChances {
  dropped: boolean;
  busy: boolean;
}

/**
 * How long to wait, in ms, before asking again after `error`, spending the chance it takes; or
 * undefined when it is not asked again (rethrown).
 */
export function secondChance(
  error: unknown,
  chances: { job: JobChances; batch: BatchChances },
): number | undefined {
  const { job, batch } = chances;
  if (error instanceof AnswerDroppedError && !batch.dropped) {
    batch.dropped = true;
    return 0;
  }
  if (error instanceof BackendBusyError && job.answered && !batch.busy) {
    batch.busy = true;
    return error.retryAfterSeconds * 1000;
  }
  if (error instanceof AnswerTimeoutError && !job.timedOut) {
    job.timedOut = true;
    return 0;
  }
  return undefined;
}

/**
 * Resolves after `ms`, or rejects with `signal`'s reason as soon as it aborts (the client gone,
 * shutdown): a wait never outlives the request it is for.
 */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    function onAbort() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
