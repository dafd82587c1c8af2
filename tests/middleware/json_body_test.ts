import assert from "node:assert/strict";
import { Hono } from "hono";
import { z } from "zod";
import { jsonBody } from "../../middleware/json_body.ts";
import { Refusal, renderRefusal, withTinyApp } from "../support/tiny_app.ts";

const Schema = z.strictObject({ name: z.string() });

const CASES: { name: string; type?: string; body: string; status: number; text: string }[] = [
  { name: "valid JSON", type: "application/json", body: '{"name":"a"}', status: 200, text: "a" },
  {
    name: "a charset",
    type: "application/json; charset=utf-8",
    body: '{"name":"b"}',
    status: 200,
    text: "b",
  },
  {
    name: "a +json type",
    type: "application/vnd.tolk+json",
    body: '{"name":"c"}',
    status: 200,
    text: "c",
  },
  { name: "text/plain", type: "text/plain", body: '{"name":"a"}', status: 415, text: "not json" },
  { name: "no content type", body: '{"name":"a"}', status: 415, text: "not json" },
  {
    name: "a schema failure",
    type: "application/json",
    body: '{"name":1}',
    status: 400,
    text: "invalid name",
  },
  {
    name: "an unknown field",
    type: "application/json",
    body: '{"name":"a","x":1}',
    status: 400,
    text: "invalid ",
  },
];

Deno.test("jsonBody validates a JSON body and refuses other media types", async () => {
  const app = new Hono().post(
    "/",
    jsonBody(Schema, {
      invalid: (issues) => new Refusal(400, `invalid ${issues[0].path.join(".")}`),
      notJson: () => new Refusal(415, "not json"),
    }),
    (c) => c.text(c.req.valid("json").name),
  );
  app.onError(renderRefusal);
  await withTinyApp(app, async (url) => {
    for (const row of CASES) {
      const headers: Record<string, string> = row.type ? { "content-type": row.type } : {};
      const response = await fetch(url, { method: "POST", headers, body: row.body });
      assert.deepEqual([response.status, await response.text()], [row.status, row.text], row.name);
    }
  });
});
