import assert from "node:assert/strict";
import { Hono } from "hono";
import { rateLimit } from "../../middleware/rate_limit.ts";
import { Refusal, renderRefusal, withTinyApp } from "../support/tiny_app.ts";

Deno.test("rateLimit admits the bucket's size per minute per key, then says when to retry", async () => {
  let clock = 0;
  const app = new Hono()
    .use(rateLimit({
      requestsPerMinute: 3,
      keyOf: (c) => c.req.header("x-key") ?? "anon",
      reject: (retryAfter) => new Refusal(429, String(retryAfter)),
      now: () => clock,
    }))
    .get("/", (c) => c.text("ok"));
  app.onError(renderRefusal);
  await withTinyApp(app, async (url) => {
    const get = async (key: string) => {
      const response = await fetch(url, { headers: { "x-key": key } });
      return `${response.status} ${await response.text()}`;
    };
    assert.deepEqual([await get("a"), await get("a"), await get("a")], [
      "200 ok",
      "200 ok",
      "200 ok",
    ]);
    assert.equal(await get("a"), "429 20", "one token comes back every 20 s");
    assert.equal(await get("b"), "200 ok", "another key has its own bucket");
    clock += 19_000;
    assert.equal(await get("a"), "429 1");
    clock += 1_000;
    assert.equal(await get("a"), "200 ok");
  });
});

Deno.test("rateLimit refuses an impossible rate at construction", () => {
  for (const requestsPerMinute of [0, -5, 2.5]) {
    assert.throws(
      () => rateLimit({ requestsPerMinute, keyOf: () => "k", reject: () => new Error() }),
      RangeError,
    );
  }
});
