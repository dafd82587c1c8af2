import assert from "node:assert/strict";
import { Hono } from "hono";
import { clientHeader, type ClientHeaderVariables } from "../../middleware/client_header.ts";
import { Refusal, renderRefusal, withTinyApp } from "../support/tiny_app.ts";

const CASES: { name: string; value?: string; status: number; client?: string }[] = [
  { name: "none", status: 200, client: "null" },
  { name: "1 character", value: "a", status: 200, client: "a" },
  { name: "128 characters", value: "x".repeat(128), status: 200, client: "x".repeat(128) },
  { name: "129 characters", value: "x".repeat(129), status: 400 },
  { name: "a non-ASCII character", value: "café", status: 400 },
  {
    name: "spaces and punctuation",
    value: "my app/1.0 (linux)",
    status: 200,
    client: "my app/1.0 (linux)",
  },
];

Deno.test("clientHeader admits 1 to 128 printable ASCII characters and sets client", async () => {
  const app = new Hono<{ Variables: ClientHeaderVariables }>()
    .use(clientHeader({ reject: () => new Refusal(400, "X-Svc-Client") }))
    .get("/", (c) => c.text(String(c.get("client"))));
  app.onError(renderRefusal);
  await withTinyApp(app, async (url) => {
    for (const row of CASES) {
      const headers: Record<string, string> = row.value === undefined
        ? {}
        : { "x-svc-client": row.value };
      const response = await fetch(url, { headers });
      const text = await response.text();
      assert.equal(response.status, row.status, row.name);
      if (row.client !== undefined) assert.equal(text, row.client, row.name);
    }
  });
});

Deno.test("clientHeader refuses to be built without reject", () => {
  assert.throws(() => clientHeader({} as never), TypeError);
});
