import assert from "node:assert/strict";
import { Hono } from "hono";
import { accessLog, escapeControls, NO_ROUTE } from "../../middleware/access_log.ts";
import { requestId, type RequestIdVariables } from "../../middleware/request_id.ts";
import { rawGet } from "../support/raw_http.ts";
import { withTinyApp } from "../support/tiny_app.ts";
import { withTranslationService } from "../support/translation_service.ts";

function loggedApp(lines: string[]) {
  const app = new Hono<{ Variables: RequestIdVariables }>();
  app.use(requestId());
  app.use(accessLog({ write: (line) => lines.push(line), quietPaths: ["/health"] }));
  app.get("/health", (c) => c.text("ok"));
  app.get("/items/:id", (c) => c.text("item"));
  app.post("/items", (c) => c.text("made", 201));
  return app;
}

const LINE_CASES: { name: string; method: string; path: string; line: RegExp }[] = [
  { name: "a route", method: "POST", path: "/items", line: /^r1 POST \/items 201 \d+ms$/ },
  {
    name: "a parameter is logged as its pattern",
    method: "GET",
    path: "/items/secret%20name",
    line: /^r1 GET \/items\/:id 200 \d+ms$/,
  },
  {
    name: "an encoded line feed forging a line",
    method: "GET",
    path: "/v1/x%0ar2%20POST%20/v1/translate%20200%201ms",
    line: new RegExp(`^r1 GET \\(no route\\) 404 \\d+ms$`),
  },
  {
    name: "an encoded NUL",
    method: "GET",
    path: "/v1/%00",
    line: /^r1 GET \(no route\) 404 \d+ms$/,
  },
  {
    name: "control characters inside a parameter",
    method: "GET",
    path: "/items/a%0d%0ab%00",
    line: /^r1 GET \/items\/:id 200 \d+ms$/,
  },
];

Deno.test("accessLog writes one line per request with the route pattern, never the client's path", async () => {
  const lines: string[] = [];
  await withTinyApp(loggedApp(lines), async (url) => {
    for (const row of LINE_CASES) {
      lines.length = 0;
      const response = await fetch(`${url}${row.path}`, {
        method: row.method,
        headers: { "x-request-id": "r1" },
      });
      await response.body?.cancel();
      assert.equal(lines.length, 1, row.name);
      assert.match(lines[0], row.line, row.name);
      assert.ok(!NO_ROUTE.includes("\n"));
    }
  });
});

Deno.test("accessLog writes no line for a quiet path", async () => {
  const lines: string[] = [];
  await withTinyApp(loggedApp(lines), async (url) => {
    await (await fetch(`${url}/health`)).text();
    assert.deepEqual(lines, []);
  });
});

Deno.test("accessLog keeps one line for a raw request path holding escapes", async () => {
  const lines: string[] = [];
  await withTinyApp(loggedApp(lines), async (url) => {
    await rawGet(url, "/items/%0a%00%1b", { Host: "localhost", "x-request-id": "r1" });
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^r1 GET \/items\/:id 200 \d+ms$/);
  });
});

const ESCAPE_CASES: [string, string][] = [
  ["plain", "plain"],
  ["a\nb", "a\\x0ab"],
  ["a\rb", "a\\x0db"],
  ["nul\x00", "nul\\x00"],
  ["esc\x1b[31m", "esc\\x1b[31m"],
  ["del\x7f", "del\\x7f"],
  ["c1\x85", "c1\\x85"],
  ["ls\u2028ps\u2029", "ls\\u2028ps\\u2029"],
  ["é 漢 😀", "é 漢 😀"],
];

Deno.test("escapeControls writes every control character as an escape", () => {
  for (const [input, expected] of ESCAPE_CASES) {
    assert.equal(escapeControls(input), expected, JSON.stringify(input));
  }
});

Deno.test("tolk serve's access log cannot be forged with %0a or %00 in the path (no token needed)", async () => {
  await withTranslationService(async (service) => {
    for (const path of ["/v1/x%0aforged-id%20POST%20/v1/translate%20200%201ms", "/v1/%00"]) {
      service.logs.length = 0;
      await (await fetch(`${service.url}${path}`, { headers: { "x-request-id": "probe" } }))
        .body?.cancel();
      assert.equal(service.logs.length, 1, path);
      assert.match(service.logs[0], /^probe GET \(no route\) 404 \d+ms$/, path);
    }
  });
});
