/**
 * How many compute threads a decode step can use without fighting other processes for cores.
 *
 * ggml's threads meet at spin barriers hundreds of times per step. When more threads are
 * runnable than there are cores, a spinning thread burns its time slice waiting for a partner
 * the kernel has parked, and each barrier costs a scheduling round: on a 2-core machine with
 * other work running, two threads decoded at a few tokens/s where one thread kept its full speed
 * (BENCHMARKS.md). So before each step the decoder asks here how many cores are free.
 *
 * Only tasks that compete as equals count: the kernel's count of runnable tasks (Linux
 * `/proc/loadavg`) says whether anyone else wants a core; when someone does, a scan of
 * `/proc/<pid>/task/<tid>/stat` (at most once a second) counts the runnable ones whose nice
 * value is not above ours. A background job at `nice 19` gets a sliver of a core next to ours and
 * never parks our threads, so it leaves every thread in use; counting it made `--threads 2`
 * decode like `--threads 1` beside such a job while llama-server used both cores. Where nothing
 * is readable, every configured thread is used.
 */

/** What {@link CpuContention} reads of `/proc`. */
export interface ProcReader {
  /** The text of a file ("" when unreadable). */
  read(path: string): string;
  /** The names in a directory ([] when unreadable). */
  list(path: string): string[];
}

/** Options of {@link CpuContention}. */
export interface CpuContentionOptions {
  /** Logical CPUs the scheduler has (default `navigator.hardwareConcurrency`). */
  cores?: number;
  /** This process: its own tasks never count (default `Deno.pid`). */
  pid?: number;
  /** Milliseconds clock (default `performance.now`). */
  now?: () => number;
}

const SAMPLE_EVERY_MS = 50;
const SCAN_EVERY_MS = 1000;
const SMOOTHING = 0.25;

/** Tracks other processes' demand for cores. */
export class CpuContention {
  readonly #cores: number;
  readonly #proc: ProcReader;
  readonly #pid: number;
  #othersRunnable = 0;
  #sampledAt = -Infinity;
  #scannedAt = -Infinity;
  #equals = 0;

  readonly #now: () => number;

  /** `proc` reads `/proc`; see {@link CpuContentionOptions} for the rest. */
  constructor(proc: ProcReader, options: CpuContentionOptions = {}) {
    this.#proc = proc;
    this.#cores = Math.max(1, options.cores ?? navigator.hardwareConcurrency);
    this.#pid = options.pid ?? Deno.pid;
    this.#now = options.now ?? (() => performance.now());
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
    const now = this.#now();
    if (now - this.#sampledAt < SAMPLE_EVERY_MS) return;
    this.#sampledAt = now;
    // "0.52 0.58 0.59 3/412 12345": runnable/total; one runnable is this thread.
    const runnable = Number(this.#proc.read("/proc/loadavg").split(" ")[3]?.split("/")[0]);
    if (!Number.isFinite(runnable)) return;
    const others = Math.max(0, runnable - 1);
    if (others > 0 && now - this.#scannedAt >= SCAN_EVERY_MS) {
      this.#scannedAt = now;
      this.#equals = this.#runnableEquals();
    }
    // Between scans the load figure bounds the last count (tasks that stopped drop out at once).
    const competing = Math.min(others, this.#equals);
    this.#othersRunnable += SMOOTHING * (competing - this.#othersRunnable);
  }

  /** Runnable tasks of other processes whose nice value is ours or lower (higher priority). */
  #runnableEquals(): number {
    const own = statFields(this.#proc.read(`/proc/${this.#pid}/stat`));
    const ownNice = own ? own.nice : 0;
    let count = 0;
    for (const pid of this.#proc.list("/proc")) {
      if (!/^\d+$/.test(pid) || Number(pid) === this.#pid) continue;
      for (const tid of this.#proc.list(`/proc/${pid}/task`)) {
        const task = statFields(this.#proc.read(`/proc/${pid}/task/${tid}/stat`));
        if (task?.state === "R" && task.nice <= ownNice) count++;
      }
    }
    return count;
  }
}

/** State and nice value of a `/proc/…/stat` line (the name in parentheses may hold anything). */
function statFields(stat: string): { state: string; nice: number } | undefined {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const nice = Number(fields[16]);
  return fields[0] && Number.isFinite(nice) ? { state: fields[0], nice } : undefined;
}
