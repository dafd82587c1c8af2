/**
 * A stand-in for Linux `/proc` as CpuContention reads it: a load line and the tasks' stat files,
 * computed at each read, so a test can change a task's state while a decoder runs.
 */
import type { ProcReader } from "../../inference/cpu_contention.ts";

/** The process under test in {@link fakeProc}. */
export const OWN_PID = 100;

/** One thread of a process, as its `/proc/<pid>/task/<tid>/stat` describes it. */
export interface FakeTask {
  pid: number;
  tid: number;
  /** "R" runnable, "S" sleeping… */
  state: string;
  nice: number;
  name?: string;
}

/** A /proc tree holding `tasks` (and the process itself, runnable at nice `ownNice`). */
export function fakeProc(tasks: FakeTask[], ownNice = 0): ProcReader {
  const own: FakeTask = { pid: OWN_PID, tid: OWN_PID, state: "R", nice: ownNice };
  const all = () => [own, ...tasks];
  const stat = (t: FakeTask) =>
    `${t.tid} (${t.name ?? "worker"}) ${t.state} 1 1 1 0 -1 0 0 0 0 0 5 5 0 0 20 ${t.nice} 1 0 99`;
  const read = (path: string) => {
    if (path === "/proc/loadavg") {
      const runnable = all().filter((t) => t.state === "R").length;
      return `1.00 1.00 1.00 ${runnable}/${all().length} 999`;
    }
    const [, pid, tid] = path.match(/^\/proc\/(\d+)\/(?:task\/(\d+)\/)?stat$/) ?? [];
    const task = all().find((t) => t.pid === Number(pid) && t.tid === Number(tid ?? pid));
    return task ? stat(task) : "";
  };
  return {
    read,
    list: (path) => {
      if (path === "/proc") return ["self", "loadavg", ...new Set(all().map((t) => String(t.pid)))];
      const pid = Number(path.match(/^\/proc\/(\d+)\/task$/)?.[1]);
      return all().filter((t) => t.pid === pid).map((t) => String(t.tid));
    },
  };
}
