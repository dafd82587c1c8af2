import assert from "node:assert/strict";
import {
  EngineBusyError,
  EngineQueue,
  type EngineQueueOptions,
} from "../../engines/engine_queue.ts";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

Deno.test("EngineQueue runs at most `concurrency` jobs at once, in arrival order", async () => {
  const queue = new EngineQueue("local-llm", { concurrency: 2, maxWaiting: 10 });
  const gates = Array.from({ length: 5 }, deferred);
  const started: number[] = [];
  let running = 0;
  let peak = 0;
  const jobs = gates.map((gate, i) =>
    queue.run(async () => {
      started.push(i);
      peak = Math.max(peak, ++running);
      await gate.promise;
      running--;
      return i;
    })
  );
  for (const gate of gates) {
    await new Promise((r) => setTimeout(r, 1));
    gate.resolve();
  }
  assert.deepEqual(await Promise.all(jobs), [0, 1, 2, 3, 4]);
  assert.deepEqual(started, [0, 1, 2, 3, 4]);
  assert.equal(peak, 2);
});

Deno.test("EngineQueue refuses a job with EngineBusyError once maxWaiting jobs wait", async () => {
  const queue = new EngineQueue("engine-one", {
    concurrency: 1,
    maxWaiting: 1,
    retryAfterSeconds: 3,
  });
  const gate = deferred();
  const first = queue.run(() => gate.promise);
  const second = queue.run(() => Promise.resolve("second"));
  await assert.rejects(queue.run(() => Promise.resolve("third")), (error: EngineBusyError) => {
    assert.ok(error instanceof EngineBusyError);
    assert.equal(error.retryAfterSeconds, 3);
    assert.equal(error.engine, "engine-one");
    return true;
  });
  gate.resolve();
  await first;
  assert.equal(await second, "second");
  assert.equal(await queue.run(() => Promise.resolve("after")), "after", "slots are freed");
});

Deno.test("EngineQueue frees the slot when a job throws", async () => {
  const queue = new EngineQueue("local-llm", { concurrency: 1, maxWaiting: 0 });
  await assert.rejects(queue.run(() => Promise.reject(new Error("boom"))), /boom/);
  assert.equal(await queue.run(() => Promise.resolve(1)), 1);
});

Deno.test("EngineQueue refuses impossible settings at construction", () => {
  assert.throws(() => new EngineQueue("local-llm", { concurrency: 0 }), RangeError);
  assert.throws(() => new EngineQueue("local-llm", { maxWaiting: -1 }), RangeError);
});

Deno.test("EngineQueue gives waiting owners turns: one owner's burst does not starve another", async () => {
  const queue = new EngineQueue("local-llm", { concurrency: 1, maxWaiting: 100 });
  const gate = deferred();
  const started: string[] = [];
  const job = (name: string) => () => {
    started.push(name);
    return name === "first" ? gate.promise : Promise.resolve();
  };
  const jobs = [queue.run(job("first"), "burst")];
  for (let i = 0; i < 5; i++) jobs.push(queue.run(job(`burst-${i}`), "burst"));
  jobs.push(queue.run(job("other-0"), "other"), queue.run(job("other-1"), "other"));
  jobs.push(queue.run(job("lone")));
  gate.resolve();
  await Promise.all(jobs);
  assert.deepEqual(started, [
    "first",
    "burst-0",
    "other-0",
    "lone",
    "burst-1",
    "other-1",
    "burst-2",
    "burst-3",
    "burst-4",
  ]);
});

/** A queue on a manual clock whose jobs are known to take `jobMs` (one job measured). */
async function measuredQueue(jobMs: number, options: EngineQueueOptions) {
  let clock = 0;
  const queue = new EngineQueue("local-llm", { ...options, now: () => clock });
  await queue.run(() => {
    clock += jobMs;
    return Promise.resolve();
  });
  /** Holds the slot until the returned release is called. */
  const occupy = (owner: unknown) => {
    const gate = deferred();
    return { done: queue.run(() => gate.promise, owner), release: gate.resolve };
  };
  return { queue, occupy };
}

const BUDGET = { concurrency: 1, maxWaiting: 32, waitBudgetMs: 150, minWaiting: 0 };

const WAIT_BUDGET_CASES = [
  // Jobs of 100 ms; one running. A new owner with n others' jobs waiting expects (n + 1) × 100 ms.
  { name: "nothing waiting: expects 100 ms", othersWaiting: 0, jobMs: 100, refusedAfter: null },
  { name: "one waiting: expects 200 ms > 150", othersWaiting: 1, jobMs: 100, refusedAfter: 1 },
  {
    name: "short jobs: five waiting expect 60 ms",
    othersWaiting: 5,
    jobMs: 10,
    refusedAfter: null,
  },
  {
    name: "slow model: Retry-After is the expected wait",
    othersWaiting: 3,
    jobMs: 2000,
    minWaiting: 3,
    refusedAfter: 8,
  },
];

for (const row of WAIT_BUDGET_CASES) {
  Deno.test(`EngineQueue wait budget, another owner's job: ${row.name}`, async () => {
    const { queue, occupy } = await measuredQueue(row.jobMs, {
      ...BUDGET,
      minWaiting: row.minWaiting ?? 0,
    });
    const running = occupy("running owner");
    const waiting = Array.from({ length: row.othersWaiting }, (_, i) => occupy(`owner ${i}`));
    const probe = queue.run(() => Promise.resolve("started"), "newcomer");
    if (row.refusedAfter === null) {
      running.release();
      for (const job of waiting) job.release();
      assert.equal(await probe, "started");
    } else {
      await assert.rejects(probe, (error: EngineBusyError) => {
        assert.ok(error instanceof EngineBusyError);
        assert.equal(error.retryAfterSeconds, row.refusedAfter);
        assert.match(error.message, new RegExp(`retry in ${row.refusedAfter} s`));
        return true;
      });
      running.release();
      for (const job of waiting) job.release();
    }
    await Promise.all([running.done, ...waiting.map((job) => job.done)]);
  });
}

Deno.test("EngineQueue never refuses a job by the wait budget when only its own owner's jobs are ahead", async () => {
  const { occupy } = await measuredQueue(1000, BUDGET);
  // A connection alone pipelining 20 jobs of a second: all run, in order.
  const jobs = Array.from({ length: 20 }, () => occupy("alone"));
  for (const job of jobs) job.release();
  await Promise.all(jobs.map((job) => job.done));
});

Deno.test("EngineQueue queues fewer than minWaiting jobs ahead whatever the estimate", async () => {
  const { queue, occupy } = await measuredQueue(1000, { ...BUDGET, minWaiting: 2 });
  const running = occupy("a");
  const second = occupy("b"); // nothing ahead but the running job
  const third = occupy("c"); // one ahead: under minWaiting
  await assert.rejects(queue.run(() => Promise.resolve(), "d"), EngineBusyError);
  for (const job of [running, second, third]) job.release();
  await Promise.all([running.done, second.done, third.done]);
});

Deno.test("EngineQueue refuses the owner with most jobs waiting first: a newcomer still gets in", async () => {
  const { queue, occupy } = await measuredQueue(40, BUDGET);
  const running = occupy("burst");
  // Burst's own jobs: never refused while it is alone.
  const burst = Array.from({ length: 6 }, () => occupy("burst"));
  // A newcomer: one job (burst's next) ahead, (1 + 1) × 40 = 80 ms.
  const newcomer = occupy("newcomer");
  // Burst's 8th job now has its 6 waiting and the newcomer's one ahead: 8 × 40 = 320 ms.
  await assert.rejects(queue.run(() => Promise.resolve(), "burst"), EngineBusyError);
  for (const job of [running, ...burst, newcomer]) job.release();
  await Promise.all([running.done, ...burst.map((job) => job.done), newcomer.done]);
});

Deno.test("EngineQueue: a job away from its slot lets the next one start, and comes back before jobs not yet started", async () => {
  const queue = new EngineQueue("local-llm", { concurrency: 1, maxWaiting: 10 });
  const events: string[] = [];
  const pause = deferred();
  const secondStarted = deferred();
  const secondGate = deferred();
  const first = queue.run(async (slot) => {
    events.push("first starts");
    await slot.away(async () => {
      events.push("first away");
      await pause.promise;
    });
    events.push("first back");
  });
  const second = queue.run(async () => {
    events.push("second starts");
    secondStarted.resolve();
    await secondGate.promise;
    events.push("second ends");
  });
  const third = queue.run(() => {
    events.push("third starts");
    return Promise.resolve();
  });
  await secondStarted.promise; // only possible while the first job is away
  pause.resolve();
  secondGate.resolve();
  await Promise.all([first, second, third]);
  assert.deepEqual(events, [
    "first starts",
    "first away",
    "second starts",
    "second ends",
    "first back",
    "third starts",
  ]);
});

Deno.test("EngineQueue: a waiting job whose signal aborts leaves the line at once; the others keep their order", async () => {
  const queue = new EngineQueue("engine-one", { concurrency: 1, maxWaiting: 2 });
  const gate = deferred();
  const started: string[] = [];
  const job = (name: string) => () => {
    started.push(name);
    return Promise.resolve(name);
  };
  const running = queue.run(() => gate.promise, "holder");
  const left = new AbortController();
  const leaving = queue.run(job("left"), "gone", { signal: left.signal });
  const staying = queue.run(job("stays"), "other");
  // Full: two wait.
  await assert.rejects(queue.run(job("refused"), "third"), EngineBusyError);
  left.abort(new Error("client left"));
  await assert.rejects(leaving, /client left/);
  // A job whose client left before it came does not wait at all.
  const aborted = AbortSignal.abort(new Error("left before waiting"));
  await assert.rejects(queue.run(job("never"), "fourth", { signal: aborted }), /before waiting/);
  // The place of the one that left is free at once, while the holder still runs.
  const next = queue.run(job("next"), "third");
  gate.resolve();
  assert.deepEqual(await Promise.all([running, staying, next]), [undefined, "stays", "next"]);
  assert.deepEqual(started, ["stays", "next"]);
});

Deno.test("EngineQueue: a signal aborted after its job got the slot is the job's to read", async () => {
  const queue = new EngineQueue("engine-one", { concurrency: 1, maxWaiting: 1 });
  const gate = deferred();
  const running = queue.run(() => gate.promise);
  const controller = new AbortController();
  const waiting = queue.run(
    () => {
      controller.abort(); // given the slot: a withdrawal now must not free a second one
      return Promise.resolve("ran");
    },
    "owner",
    { signal: controller.signal },
  );
  gate.resolve();
  await running;
  assert.equal(await waiting, "ran");
  const order: string[] = [];
  const hold = deferred();
  const first = queue.run(async () => {
    order.push("first");
    await hold.promise;
  });
  const second = queue.run(() => Promise.resolve(order.push("second")));
  await new Promise((resolve) => setTimeout(resolve, 1));
  assert.deepEqual(order, ["first"], "one slot, not two");
  hold.resolve();
  await Promise.all([first, second]);
});
