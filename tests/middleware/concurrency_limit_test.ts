import assert from "node:assert/strict";
import { Hono } from "hono";
import { concurrencyLimit, type ConcurrencyLoad } from "../../middleware/concurrency_limit.ts";
import { Refusal, renderRefusal, withTinyApp } from "../support/tiny_app.ts";

Deno.test("concurrencyLimit refuses the request over the ceiling and frees the slot when a body ends", async () => {
  const gates: Array<() => void> = [];
  const app = new Hono()
    .use(concurrencyLimit({ max: 2, reject: () => new Refusal(503, "busy") }))
    .get("/", async (c) => {
      await new Promise<void>((resolve) => gates.push(resolve));
      return c.text("done");
    });
  app.onError(renderRefusal);
  await withTinyApp(app, async (url) => {
    const first = fetch(url);
    const second = fetch(url);
    while (gates.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    const third = await fetch(url);
    assert.deepEqual([third.status, await third.text()], [503, "busy"]);
    gates.forEach((open) => open());
    assert.equal(await (await first).text(), "done");
    assert.equal(await (await second).text(), "done");
    const again = fetch(url);
    while (gates.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    gates[2]();
    assert.equal((await again).status, 200, "the slots were released");
    await (await again).body?.cancel();
  });
});

Deno.test("concurrencyLimit releases the slot of a handler that throws", async () => {
  let calls = 0;
  const app = new Hono()
    .use(concurrencyLimit({ max: 1, reject: () => new Refusal(503, "busy") }))
    .get("/", () => {
      calls++;
      throw new Refusal(400, "bad");
    });
  app.onError(renderRefusal);
  await withTinyApp(app, async (url) => {
    for (let i = 0; i < 3; i++) {
      const response = await fetch(url);
      assert.deepEqual([response.status, await response.text()], [400, "bad"]);
    }
    assert.equal(calls, 3);
  });
});

/** What {@link withGatedApp} hands its test. */
interface GatedApp {
  /** Opens the gate of each request that reached the handler, in order. */
  gates: Array<() => void>;
  /** The signal of every request that reached the limit, in order. */
  arrived: AbortSignal[];
  /** Those the limit refused at once. */
  refused: AbortSignal[];
  /** The limit's own count of requests running and waiting. */
  load: () => ConcurrencyLoad;
}

/**
 * Serves an app with one slot, a queue of `queue` and a grace of `graceMs`, whose handler waits
 * for its gate. The limit queues or refuses a request in the same turn it arrives, so a test waits
 * for an arrival instead of sleeping and hoping the request got there (50 ms did not always
 * suffice under load). Every gate opens at the end, so a failed assertion fails the test instead
 * of leaving the server's shutdown waiting for a handler.
 */
async function withGatedApp(
  options: { queue: number; graceMs?: number },
  fn: (url: string, gated: GatedApp) => Promise<void>,
) {
  const limit = concurrencyLimit({
    max: 1,
    ...options,
    reject: () => (gated.refused.push(gated.arrived.at(-1)!), new Refusal(503, "busy")),
  });
  const gated: GatedApp = { gates: [], arrived: [], refused: [], load: limit.load };
  const app = new Hono()
    .use((c, next) => {
      gated.arrived.push(c.req.raw.signal);
      return next();
    })
    .use(limit)
    .get("/", async (c) => {
      await new Promise<void>((resolve) => gated.gates.push(resolve));
      return c.text("done");
    });
  app.onError(renderRefusal);
  await withTinyApp(app, async (url) => {
    try {
      await fn(url, gated);
    } finally {
      for (const open of gated.gates) open();
    }
  });
}

async function waitFor(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

Deno.test("concurrencyLimit queues up to `queue` requests, hands them freed slots in order, refuses beyond, and counts them", async () => {
  await withGatedApp({ queue: 2 }, async (url, { gates, arrived, load }) => {
    const running = fetch(url);
    await waitFor(() => gates.length === 1);
    const second = fetch(url);
    await waitFor(() => arrived.length === 2);
    const third = fetch(url);
    await waitFor(() => arrived.length === 3);
    const refused = await fetch(url);
    assert.deepEqual([refused.status, await refused.text()], [503, "busy"]);
    assert.equal(gates.length, 1, "queued requests do not run beside the running one");
    assert.deepEqual(load(), { running: 1, queued: 2 });
    gates[0]();
    assert.equal(await (await running).text(), "done");
    await waitFor(() => gates.length === 2);
    gates[1]();
    assert.equal(await (await second).text(), "done", "the oldest waiting request goes first");
    await waitFor(() => gates.length === 3);
    assert.deepEqual(load(), { running: 1, queued: 0 });
    gates[2]();
    assert.equal(await (await third).text(), "done");
    assert.deepEqual(load(), { running: 0, queued: 0 });
  });
});

Deno.test("concurrencyLimit drops a queued request whose client goes away, freeing its place", async () => {
  await withGatedApp({ queue: 1 }, async (url, { gates, arrived, refused }) => {
    const running = fetch(url);
    await waitFor(() => gates.length === 1);
    const leaving = new AbortController();
    const gone = fetch(url, { signal: leaving.signal }).catch((error) => error);
    await waitFor(() => arrived.length === 2); // queued
    leaving.abort();
    assert.equal((await gone).name, "AbortError");
    // The limit leaves the queue on this signal's abort, in the same dispatch.
    await waitFor(() => arrived[1].aborted);
    // Its place in the queue is free again: the next request waits instead of being refused.
    const queued = fetch(url);
    await waitFor(() => arrived.length === 3);
    assert.equal(refused.length, 0, "a request was queued again after the leaver went");
    gates[0]();
    await (await running).body?.cancel();
    await waitFor(() => gates.length === 2);
    assert.equal(gates.length, 2, "the leaver never ran");
    gates[1]();
    assert.equal(await (await queued).text(), "done");
  });
});

const BAD_MAX = [0, -1, 1.5, Number.NaN];
const BAD_QUEUE = [-1, 0.5, Number.NaN];
const BAD_GRACE = [-1, Number.NaN];

Deno.test("concurrencyLimit refuses an impossible ceiling or queue at construction", () => {
  for (const max of BAD_MAX) {
    assert.throws(() => concurrencyLimit({ max, reject: () => new Error() }), RangeError, `${max}`);
  }
  for (const queue of BAD_QUEUE) {
    assert.throws(
      () => concurrencyLimit({ max: 1, queue, reject: () => new Error() }),
      RangeError,
      `${queue}`,
    );
  }
  for (const graceMs of BAD_GRACE) {
    assert.throws(
      () => concurrencyLimit({ max: 1, graceMs, reject: () => new Error() }),
      RangeError,
      `${graceMs}`,
    );
  }
});

Deno.test("concurrencyLimit frees the slot as soon as the client goes away, before its handler ends", async () => {
  const seen: Array<() => void> = [];
  const finish = Promise.withResolvers<void>();
  let handled = 0;
  const app = new Hono()
    .use(concurrencyLimit({ max: 1, reject: () => new Refusal(503, "busy") }))
    .get("/", async (c) => {
      if (handled++ > 0) return c.text("next");
      // The first handler notices its client leave but takes its time to wind down, as a
      // generation does between the abort and the end of its decode step.
      c.req.raw.signal.addEventListener("abort", () => seen.forEach((notify) => notify()));
      await finish.promise;
      return c.text("late");
    });
  app.onError(renderRefusal);
  await withTinyApp(app, async (url) => {
    const leaving = new AbortController();
    const gone = fetch(url, { signal: leaving.signal }).catch((error) => error);
    await waitFor(() => handled === 1);
    const noticed = new Promise<void>((resolve) => seen.push(resolve));
    leaving.abort();
    assert.equal((await gone).name, "AbortError");
    await noticed;
    try {
      const next = await fetch(url);
      assert.deepEqual([next.status, await next.text()], [200, "next"]);
    } finally {
      finish.resolve();
    }
  });
});

Deno.test("concurrencyLimit with graceMs serves a request whose slot frees within the grace, refuses after it", async () => {
  // A long grace: the slot must free within it after the graced request arrived, even when a
  // loaded machine stalls this process between the two.
  const graceMs = 1000;
  await withGatedApp({ queue: 0, graceMs }, async (url, { gates, arrived }) => {
    const running = fetch(url);
    await waitFor(() => gates.length === 1);
    const started = Date.now();
    const refused = await fetch(url);
    assert.deepEqual([refused.status, await refused.text()], [503, "busy"]);
    assert.ok(Date.now() - started >= graceMs - 10, "refused only once the grace ran out");
    const graced = fetch(url);
    await waitFor(() => arrived.length === 3); // waiting in its grace
    gates[0]();
    assert.equal(await (await running).text(), "done");
    await waitFor(() => gates.length === 2);
    gates[1]();
    assert.equal(await (await graced).text(), "done", "served with the slot freed in its grace");
  });
});
