import assert from "node:assert/strict";
import { Hono } from "hono";
import {
  type ApiAccess,
  authorize,
  bearerToken,
  offeredSubprotocols,
  tokenAuth,
} from "../../middleware/token_auth.ts";
import { withTinyApp } from "../support/tiny_app.ts";

const TOKEN = "tok-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
const ON: ApiAccess = { enabled: true, token: TOKEN };

function request(headers: Record<string, string>, query = ""): Request {
  return new Request(`http://localhost/v1/ws/translate${query}`, { headers });
}

const VERDICT_CASES: {
  name: string;
  request: Request;
  access?: ApiAccess;
  websocket: boolean;
  expected: string;
}[] = [
  {
    name: "X-Svc-Token",
    request: request({ "x-svc-token": TOKEN }),
    websocket: false,
    expected: "header",
  },
  {
    name: "Authorization: Bearer",
    request: request({ authorization: `Bearer ${TOKEN}` }),
    websocket: false,
    expected: "bearer",
  },
  {
    name: "lower-case bearer",
    request: request({ authorization: `bearer ${TOKEN}` }),
    websocket: false,
    expected: "bearer",
  },
  { name: "no token", request: request({}), websocket: false, expected: "missing" },
  {
    name: "a wrong token",
    request: request({ "x-svc-token": "nope" }),
    websocket: false,
    expected: "invalid",
  },
  {
    name: "the API disabled",
    request: request({ "x-svc-token": TOKEN }),
    access: { enabled: false, token: TOKEN },
    websocket: false,
    expected: "disabled",
  },
  {
    name: "a revoked token",
    request: request({ "x-svc-token": TOKEN }),
    access: { enabled: true, token: null },
    websocket: false,
    expected: "invalid",
  },
  {
    name: "a query token over HTTP",
    request: request({}, `?token=${TOKEN}`),
    websocket: false,
    expected: "missing",
  },
  {
    name: "?token= on a handshake",
    request: request({}, `?token=${TOKEN}`),
    websocket: true,
    expected: "query",
  },
  {
    name: "?access_token= on a handshake",
    request: request({}, `?access_token=${TOKEN}`),
    websocket: true,
    expected: "query",
  },
  {
    name: "bearer,<token>",
    request: request({ "sec-websocket-protocol": `bearer,${TOKEN}` }),
    websocket: true,
    expected: "subprotocol",
  },
  {
    name: "bearer, <token>",
    request: request({ "sec-websocket-protocol": `bearer, ${TOKEN}` }),
    websocket: true,
    expected: "subprotocol",
  },
  {
    name: "a subprotocol over HTTP",
    request: request({ "sec-websocket-protocol": `bearer,${TOKEN}` }),
    websocket: false,
    expected: "missing",
  },
  {
    name: "bearer not offered first",
    request: request({ "sec-websocket-protocol": `chat, bearer, ${TOKEN}` }),
    websocket: true,
    expected: "missing",
  },
];

Deno.test("authorize gives one verdict per carrier for HTTP and WebSocket handshakes", () => {
  for (const row of VERDICT_CASES) {
    const verdict = authorize(row.request, row.access ?? ON, { websocket: row.websocket });
    const got = verdict.allowed ? verdict.carrier : verdict.reason;
    assert.equal(got, row.expected, row.name);
  }
});

Deno.test("authorize chooses the bearer subprotocol only when it is offered first", () => {
  const offered = authorize(request({ "sec-websocket-protocol": `bearer,${TOKEN}` }), ON, {
    websocket: true,
  });
  assert.equal(offered.allowed && offered.subprotocol, "bearer");
  const viaQuery = authorize(request({}, `?token=${TOKEN}`), ON, { websocket: true });
  assert.equal(viaQuery.allowed && viaQuery.subprotocol, null);
});

Deno.test("bearerToken and offeredSubprotocols parse each header one way", () => {
  assert.equal(bearerToken("Bearer abc"), "abc");
  assert.equal(bearerToken("Bearer  abc  "), "abc");
  assert.equal(bearerToken("Basic abc"), undefined);
  assert.equal(bearerToken("Bearer a b"), undefined);
  assert.deepEqual(offeredSubprotocols("bearer,abc"), ["bearer", "abc"]);
  assert.deepEqual(offeredSubprotocols(" bearer ,  abc "), ["bearer", "abc"]);
  assert.deepEqual(offeredSubprotocols(null), []);
});

Deno.test("tokenAuth reads the settings once per request and rejects with the reason", async () => {
  let reads = 0;
  let access: ApiAccess = ON;
  const app = new Hono()
    .use(tokenAuth({
      access: () => {
        reads++;
        return access;
      },
      reject: (reason) => new Error(reason),
    }))
    .get("/", (c) => c.text("ok"));
  app.onError((error, c) => c.text(error.message, 401));
  await withTinyApp(app, async (url) => {
    const ok = await fetch(url, { headers: { "x-svc-token": TOKEN } });
    assert.equal(await ok.text(), "ok");
    assert.equal(reads, 1);
    const missing = await fetch(url);
    assert.deepEqual([missing.status, await missing.text()], [401, "missing"]);
    access = { enabled: false, token: TOKEN };
    const disabled = await fetch(url, { headers: { "x-svc-token": TOKEN } });
    assert.deepEqual([disabled.status, await disabled.text()], [401, "disabled"]);
    assert.equal(reads, 3);
  });
});

Deno.test("tokenAuth refuses to be built without its functions", () => {
  assert.throws(() => tokenAuth({} as never), TypeError);
});
