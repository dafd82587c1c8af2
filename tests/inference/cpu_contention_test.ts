import assert from "node:assert/strict";
import { CpuContention, type ProcReader } from "../../inference/cpu_contention.ts";
import { fakeProc, OWN_PID } from "../support/fake_proc.ts";

/** Threads chosen once the smoothing has settled (a second of samples apart). */
function settled(proc: ProcReader, wanted = 2, cores = 2): number {
  let clock = 0;
  const contention = new CpuContention(proc, { cores, pid: OWN_PID, now: () => clock });
  let threads = 0;
  for (let i = 0; i < 30; i++, clock += 1000) threads = contention.threadsFor(wanted);
  return threads;
}

const CASES: Array<{ name: string; proc: ProcReader; threads: number }> = [
  { name: "nothing else runnable", proc: fakeProc([]), threads: 2 },
  {
    name: "a runnable task of another process at the same nice value",
    proc: fakeProc([{ pid: 200, tid: 200, state: "R", nice: 0 }]),
    threads: 1,
  },
  {
    name: "a runnable worker thread whose process's main thread sleeps",
    proc: fakeProc([
      { pid: 200, tid: 200, state: "S", nice: 0 },
      { pid: 200, tid: 201, state: "R", nice: 0 },
    ]),
    threads: 1,
  },
  {
    name: "a runnable task at higher priority (nice -5)",
    proc: fakeProc([{ pid: 200, tid: 200, state: "R", nice: -5 }]),
    threads: 1,
  },
  {
    name: "two runnable tasks of a nice 19 background job",
    proc: fakeProc([
      { pid: 200, tid: 200, state: "R", nice: 19 },
      { pid: 200, tid: 201, state: "R", nice: 19 },
    ]),
    threads: 2,
  },
  {
    name: "sleeping tasks of other processes",
    proc: fakeProc([{ pid: 200, tid: 200, state: "S", nice: 0 }]),
    threads: 2,
  },
  {
    name: "this process's own runnable threads",
    proc: fakeProc([{ pid: OWN_PID, tid: 101, state: "R", nice: 0 }]),
    threads: 2,
  },
  {
    name: "a runnable task named with a parenthesis and spaces",
    proc: fakeProc([{ pid: 200, tid: 200, state: "R", nice: 0, name: "a) R 0 (b" }]),
    threads: 1,
  },
  {
    name: "a daemon itself at nice 10 beside a nice 5 task",
    proc: fakeProc([{ pid: 200, tid: 200, state: "R", nice: 5 }], 10),
    threads: 1,
  },
  { name: "nothing readable", proc: { read: () => "", list: () => [] }, threads: 2 },
];

for (const { name, proc, threads } of CASES) {
  Deno.test(`CpuContention with ${name} uses ${threads} of 2 threads on 2 cores`, () => {
    assert.equal(settled(proc), threads);
  });
}

Deno.test("CpuContention never goes below one thread nor above the threads asked for", () => {
  const busy = fakeProc(
    Array.from({ length: 6 }, (_, i) => ({ pid: 200 + i, tid: 200 + i, state: "R", nice: 0 })),
  );
  assert.equal(settled(busy, 4, 4), 1);
  assert.equal(settled(fakeProc([]), 3, 8), 3);
  assert.equal(settled(busy, 1), 1);
});
