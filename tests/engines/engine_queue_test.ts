import assert from "node:assert/strict";
import { EngineBusyError, EngineQueue } from "../../engines/engine_queue.ts";

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
