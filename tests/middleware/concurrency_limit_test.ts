import assert from "node:assert/strict";
import { Hono } from "hono";
import { concurrencyLimit } from "../../middleware/concurrency_limit.ts";
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

const BAD_MAX = [0, -1, 1.5, Number.NaN];

Deno.test("concurrencyLimit refuses an impossible ceiling at construction", () => {
  for (const max of BAD_MAX) {
    assert.throws(() => concurrencyLimit({ max, reject: () => new Error() }), RangeError, `${max}`);
  }
});
