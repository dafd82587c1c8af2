/**
 * How many compute threads a decode step can use without fighting other processes for cores.
 *
 * ggml's threads meet at spin barriers hundreds of times per step. When more threads are
 * runnable than there are cores, a spinning thread burns its time slice waiting for a partner
 * the kernel has parked, and each barrier costs a scheduling round: on a 2-core machine with
 * other work running, two threads decoded at a few tokens/s where one thread kept its full speed
 * (BENCHMARKS.md). So before each step the decoder asks here how many cores are free, from the
 * number of runnable tasks the kernel reports (Linux `/proc/loadavg`, read by the caller's
 * `readLoadavg`), smoothed over steps. Where it reads nothing, every configured thread is used.
 */

const SAMPLE_EVERY_MS = 50;
const SMOOTHING = 0.25;

/** Tracks other processes' demand for cores. */
export class CpuContention {
  readonly #cores: number;
  #othersRunnable = 0;
  #sampledAt = -Infinity;
  readonly #read: () => string;

  /**
   * `readLoadavg` returns the text of `/proc/loadavg` ("" when unknown); `cores` are the logical
   * CPUs the scheduler has (default `navigator.hardwareConcurrency`).
   */
  constructor(readLoadavg: () => string, cores = navigator.hardwareConcurrency) {
    this.#read = readLoadavg;
    this.#cores = Math.max(1, cores);
  }

  /**
   * Threads (1 to `wanted`) that fit in the cores other runnable tasks leave free. Call it while
   * this process's compute threads are idle (between steps), so they do not count themselves.
   */
  threadsFor(wanted: number): number {
    if (wanted <= 1) return 1;
    this.#sample();
    return Math.max(1, Math.min(wanted, Math.round(this.#cores - this.#othersRunnable)));
  }

  #sample(): void {
    const now = performance.now();
    if (now - this.#sampledAt < SAMPLE_EVERY_MS) return;
    this.#sampledAt = now;
    const text = this.#read();
    // "0.52 0.58 0.59 3/412 12345": runnable/total; one runnable is this thread.
    const runnable = Number(text.split(" ")[3]?.split("/")[0]);
    if (!Number.isFinite(runnable)) return;
    const others = Math.max(0, runnable - 1);
    this.#othersRunnable += SMOOTHING * (others - this.#othersRunnable);
  }
}
