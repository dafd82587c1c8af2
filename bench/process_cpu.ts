/**
 * CPU time and memory of processes and their threads, read from `/proc` (Linux; Deno opens
 * `/proc/<pid>` only with `--allow-all`). Used by `bench:anchor` to compare two servers.
 */

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** User + system seconds from the fields of a `/proc/…/stat` line. */
function statSeconds(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** User + system CPU seconds of a process so far. */
export async function cpuSeconds(pid: number): Promise<number> {
  return statSeconds(await Deno.readTextFile(`/proc/${pid}/stat`));
}

/** User + system CPU seconds of each thread of a process so far, by thread id. */
export async function threadSeconds(pid: number): Promise<Map<string, number>> {
  const seconds = new Map<string, number>();
  for await (const task of Deno.readDir(`/proc/${pid}/task`)) {
    try {
      seconds.set(
        task.name,
        statSeconds(await Deno.readTextFile(`/proc/${pid}/task/${task.name}/stat`)),
      );
    } catch {
      // The thread ended between the listing and the read: its time is gone with it.
    }
  }
  return seconds;
}

/**
 * CPU seconds used between two {@link threadSeconds} readings by every thread except the
 * `busiest` ones that used the most: with a server computing on N threads, what its other
 * threads (HTTP, event loop, runtime, collector) took beside the computation.
 */
export function secondsBeyondBusiest(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
  busiest: number,
): number {
  const used = [...after].map(([thread, seconds]) => seconds - (before.get(thread) ?? 0));
  return used.sort((a, b) => b - a).slice(busiest).reduce((sum, seconds) => sum + seconds, 0);
}

/**
 * Busy CPU seconds of the whole machine so far (user, system, interrupts, steal: work at a nice
 * value above 0 is left out, as the contention guard leaves it out).
 */
export async function machineBusySeconds(): Promise<number> {
  const [user, , system, , , irq, softirq, steal] = (await Deno.readTextFile("/proc/stat"))
    .split("\n")[0].split(/\s+/).slice(1).map(Number);
  return (user + system + irq + softirq + steal) / CLOCK_TICKS;
}

/** VmRSS and VmHWM (peak) of a process, in MB. */
export async function memory(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = (key: string) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))![1]);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}
