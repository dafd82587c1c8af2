import assert from "node:assert/strict";
import { Hono } from "hono";
import { apiKeyAuth } from "../../middleware/api_key_auth.ts";
import { Refusal, renderRefusal, withTinyApp } from "../support/tiny_app.ts";

const KEY = "sk-local-test";

const CASES: { name: string; authorization?: string; status: number }[] = [
  { name: "the right key", authorization: `Bearer ${KEY}`, status: 200 },
  { name: "lower-case scheme", authorization: `bearer ${KEY}`, status: 200 },
  { name: "no header", status: 401 },
  { name: "a wrong key", authorization: "Bearer nope", status: 401 },
  { name: "a prefix of the key", authorization: `Bearer ${KEY.slice(0, -1)}`, status: 401 },
  { name: "another scheme", authorization: `Basic ${KEY}`, status: 401 },
];

Deno.test("apiKeyAuth admits only Authorization: Bearer <key>", async () => {
  const app = new Hono()
    .use(apiKeyAuth({ key: KEY, reject: () => new Refusal(401, "invalid_api_key") }))
    .get("/", (c) => c.text("ok"));
  app.onError(renderRefusal);
  await withTinyApp(app, async (url) => {
    for (const row of CASES) {
      const headers: Record<string, string> = row.authorization
        ? { authorization: row.authorization }
        : {};
      const response = await fetch(url, { headers });
      await response.body?.cancel();
      assert.equal(response.status, row.status, row.name);
    }
  });
});

Deno.test("apiKeyAuth refuses to be built without a key or reject", () => {
  assert.throws(() => apiKeyAuth({ key: "", reject: () => new Error() }), TypeError);
  assert.throws(() => apiKeyAuth({ key: KEY } as never), TypeError);
});
