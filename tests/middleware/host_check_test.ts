import assert from "node:assert/strict";
import { Hono } from "hono";
import { hostCheck } from "../../middleware/host_check.ts";
import { rawGet } from "../support/raw_http.ts";
import { Refusal, renderRefusal, withTinyApp } from "../support/tiny_app.ts";

const CASES: { host: string; status: number }[] = [
  { host: "localhost", status: 200 },
  { host: "localhost:8765", status: 200 },
  { host: "127.0.0.1:1", status: 200 },
  { host: "[::1]:8765", status: 200 },
  { host: "LOCALHOST", status: 200 },
  { host: "evil.example", status: 403 },
  { host: "localhost.evil.example", status: 403 },
  { host: "127.0.0.1:port", status: 403 },
];

Deno.test("hostCheck admits loopback Host headers only", async () => {
  const app = new Hono()
    .use(hostCheck({ reject: (_, host) => new Refusal(403, `host ${host}`) }))
    .get("/", (c) => c.text("ok"));
  app.onError(renderRefusal);
  await withTinyApp(app, async (url) => {
    for (const row of CASES) {
      const response = await rawGet(url, "/", { Host: row.host });
      assert.equal(response.status, row.status, row.host);
    }
  });
});

Deno.test("hostCheck turned off admits any Host", async () => {
  const app = new Hono()
    .use(hostCheck({ enabled: false, reject: () => new Refusal(403, "no") }))
    .get("/", (c) => c.text("ok"));
  await withTinyApp(app, async (url) => {
    assert.equal((await rawGet(url, "/", { Host: "evil.example" })).status, 200);
  });
});

Deno.test("hostCheck refuses to be built without reject", () => {
  assert.throws(() => hostCheck({} as never), TypeError);
});
