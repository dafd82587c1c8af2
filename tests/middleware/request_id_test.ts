import assert from "node:assert/strict";
import { Hono } from "hono";
import { requestId, type RequestIdVariables } from "../../middleware/request_id.ts";
import { Refusal, renderRefusal, withTinyApp } from "../support/tiny_app.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const CASES: { name: string; sent?: string; kept: boolean }[] = [
  { name: "none", kept: false },
  { name: "a safe id", sent: "abc.DEF_123-x", kept: true },
  { name: "128 characters", sent: "a".repeat(128), kept: true },
  { name: "129 characters", sent: "a".repeat(129), kept: false },
  { name: "an equals sign", sent: "a=b", kept: false },
  { name: "a space", sent: "a b", kept: false },
];

Deno.test("requestId keeps a safe client id, else makes a UUID, on success and error answers", async () => {
  const app = new Hono<{ Variables: RequestIdVariables }>()
    .use(requestId())
    .get("/", (c) => c.text(c.get("requestId")))
    .get("/fail", () => {
      throw new Refusal(400, "no");
    });
  app.onError(renderRefusal);
  await withTinyApp(app, async (url) => {
    for (const row of CASES) {
      for (const path of ["/", "/fail"]) {
        const headers: Record<string, string> = row.sent ? { "x-request-id": row.sent } : {};
        const response = await fetch(`${url}${path}`, { headers });
        await response.body?.cancel();
        const id = response.headers.get("x-request-id")!;
        if (row.kept) assert.equal(id, row.sent, `${row.name} ${path}`);
        else assert.match(id, UUID, `${row.name} ${path}`);
      }
    }
  });
});
