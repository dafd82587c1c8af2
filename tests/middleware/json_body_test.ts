import assert from "node:assert/strict";
import { Hono } from "hono";
import { gzipSync } from "node:zlib";
import { z } from "zod";
import { jsonBody } from "../../middleware/json_body.ts";
import { Refusal, renderRefusal, withTinyApp } from "../support/tiny_app.ts";

const Schema = z.strictObject({ name: z.string() });

const CASES: {
  name: string;
  type?: string;
  coding?: string;
  body: string | Uint8Array<ArrayBuffer>;
  status: number;
  text: string;
}[] = [
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
    name: "bytes that are not UTF-8",
    type: "application/json",
    body: new Uint8Array([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]),
    status: 400,
    text: "not utf-8",
  },
  {
    name: "a gzip body",
    type: "application/json",
    coding: "gzip",
    body: new Uint8Array(gzipSync('{"name":"a"}')),
    status: 400,
    text: "compressed gzip",
  },
  {
    name: "an identity coding",
    type: "application/json",
    coding: "identity",
    body: '{"name":"d"}',
    status: 200,
    text: "d",
  },
  {
    name: "an unknown field",
    type: "application/json",
    body: '{"name":"a","x":1}',
    status: 400,
    text: "invalid ",
  },
];

Deno.test("jsonBody validates a JSON body and refuses other media types and compressed bodies", async () => {
  const app = new Hono().post(
    "/",
    jsonBody(Schema, {
      invalid: (issues) => new Refusal(400, `invalid ${issues[0].path.join(".")}`),
      notJson: () => new Refusal(415, "not json"),
      notUtf8: () => new Refusal(400, "not utf-8"),
      compressed: (coding) => new Refusal(400, `compressed ${coding}`),
    }),
    (c) => c.text(c.req.valid("json").name),
  );
  app.onError(renderRefusal);
  await withTinyApp(app, async (url) => {
    for (const row of CASES) {
      const headers: Record<string, string> = row.type ? { "content-type": row.type } : {};
      if (row.coding) headers["content-encoding"] = row.coding;
      const response = await fetch(url, { method: "POST", headers, body: row.body });
      assert.deepEqual([response.status, await response.text()], [row.status, row.text], row.name);
    }
  });
});
