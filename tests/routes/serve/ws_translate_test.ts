import assert from "node:assert/strict";
import { ENGLISH, FRENCH } from "../../support/sample_texts.ts";
import { ErrorResponseSchema, TranslateResponseSchema } from "../../../schemas/translation.ts";
import { rawGet, rawUpgrade } from "../../support/raw_http.ts";
import { SettingsStore } from "../../../settings/settings_store.ts";
import { type Client, close, connect } from "../../support/ws_client.ts";
import {
  postTranslate,
  startTranslationService,
  type TestService,
  withTranslationService as withService,
} from "../../support/translation_service.ts";

const CARRIERS: { name: string; open: (s: TestService) => Promise<Client>; protocol: string }[] = [
  {
    name: "?token=",
    open: (s) => connect(`${s.wsUrl}/v1/ws/translate?token=${s.token}`),
    protocol: "",
  },
  {
    name: "?access_token=",
    open: (s) => connect(`${s.wsUrl}/v1/ws/translate?access_token=${s.token}`),
    protocol: "",
  },
  {
    name: "Sec-WebSocket-Protocol",
    open: (s) => connect(`${s.wsUrl}/v1/ws/translate`, ["bearer", s.token]),
    protocol: "bearer",
  },
  {
    name: "Authorization: Bearer",
    open: (s) =>
      connect(`${s.wsUrl}/v1/ws/translate`, { headers: { authorization: `Bearer ${s.token}` } }),
    protocol: "",
  },
  {
    name: "X-Svc-Token",
    open: (s) => connect(`${s.wsUrl}/v1/ws/translate`, { headers: { "x-svc-token": s.token } }),
    protocol: "",
  },
];

Deno.test("GET /v1/ws/translate accepts every token carrier and echoes the bearer subprotocol", async () => {
  await withService(async (service) => {
    for (const carrier of CARRIERS) {
      const client = await carrier.open(service);
      assert.equal(client.socket.protocol, carrier.protocol, carrier.name);
      client.socket.send(JSON.stringify({ target: "en", texts: [ENGLISH] }));
      const reply = TranslateResponseSchema.parse(await client.next());
      assert.equal(reply.results[0].text, ENGLISH, carrier.name);
      await close(client);
    }
  });
});

const HANDSHAKE_KEY = {
  "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
  "Sec-WebSocket-Version": "13",
};

Deno.test("GET /v1/ws/translate refuses a bad handshake with 401 ws_unauthorized before upgrading", async () => {
  await withService(async (service) => {
    for (const query of ["", "?token=wrong", "?access_token="]) {
      const response = await rawGet(service.url, `/v1/ws/translate${query}`, {
        Host: "localhost",
        Upgrade: "websocket",
        ...HANDSHAKE_KEY,
      });
      assert.equal(response.status, 401, query);
      assert.equal(
        ErrorResponseSchema.parse(JSON.parse(response.body)).error.code,
        "ws_unauthorized",
      );
    }
  });
});

Deno.test("GET /v1/ws/translate with the right token while the API is disabled says to enable it, as HTTP does", async () => {
  await withService(async (service) => {
    service.store.update((settings) => {
      settings.api.enabled = false;
    });
    const response = await rawGet(service.url, `/v1/ws/translate?token=${service.token}`, {
      Host: "localhost",
      Upgrade: "websocket",
      ...HANDSHAKE_KEY,
    });
    assert.equal(response.status, 401);
    const { error } = ErrorResponseSchema.parse(JSON.parse(response.body));
    assert.equal(error.code, "ws_unauthorized");
    const http = await postTranslate(service, { target: "de", texts: [ENGLISH] });
    assert.equal(error.message, ErrorResponseSchema.parse(await http.json()).error.message);
    // As a checkout runs it (the README's `deno task tolk`), not a `tolk` that is not on the PATH.
    assert.match(error.message, /disabled; enable it with `deno task tolk api enable`$/);
  });
});

Deno.test("GET /v1/ws/translate without upgrade headers is a 400 invalid_request", async () => {
  await withService(async (service) => {
    const response = await fetch(`${service.url}/v1/ws/translate?token=${service.token}`);
    const body = ErrorResponseSchema.parse(await response.json());
    assert.equal(response.status, 400);
    assert.equal(body.error.code, "invalid_request");
  });
});

Deno.test("GET /v1/ws/translate: an upgrade without Sec-WebSocket-Key or Connection: Upgrade is a 400, not a 500", async () => {
  await withService(async (service) => {
    const cases: Record<string, string>[] = [
      { "Sec-WebSocket-Version": "13" },
      { "Sec-WebSocket-Key": "", "Sec-WebSocket-Version": "13" },
    ];
    for (const headers of cases) {
      const response = await rawGet(service.url, `/v1/ws/translate?token=${service.token}`, {
        Host: "localhost",
        Upgrade: "websocket",
        ...headers,
      });
      assert.equal(response.status, 400, JSON.stringify(headers));
      const body = ErrorResponseSchema.parse(JSON.parse(response.body));
      assert.equal(body.error.code, "invalid_request");
      assert.match(body.error.message, /^not a WebSocket handshake: /);
    }
    assert.deepEqual(service.logs.filter((line) => /unexpected/.test(line)), []);
  });
});

Deno.test("GET /v1/ws/translate answers pipelined frames in request order", async () => {
  await withService(async (service) => {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    // A slow frame (engine work) first, fast ones (pass-through, errors) behind it.
    const frames = [
      { target: "de", texts: [FRENCH, FRENCH, FRENCH] },
      { target: "en", texts: [ENGLISH] },
      { target: "xx", texts: ["a"] },
      { target: "en", texts: [ENGLISH, ENGLISH] },
      { target: "es", texts: [FRENCH, ENGLISH, FRENCH, ENGLISH] },
    ];
    for (const frame of frames) client.socket.send(JSON.stringify(frame));
    const replies = [];
    for (const _ of frames) replies.push(await client.next());
    assert.equal(TranslateResponseSchema.parse(replies[0]).results.length, 3);
    assert.equal(TranslateResponseSchema.parse(replies[1]).results.length, 1);
    assert.equal(ErrorResponseSchema.parse(replies[2]).error.code, "unsupported_language");
    assert.equal(TranslateResponseSchema.parse(replies[3]).results.length, 2);
    assert.equal(TranslateResponseSchema.parse(replies[4]).target, "es");
    await close(client);
  });
});

Deno.test("GET /v1/ws/translate keeps the connection open after an error frame", async () => {
  await withService(async (service) => {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    client.socket.send("{not json");
    const error = ErrorResponseSchema.parse(await client.next());
    assert.equal(error.error.code, "invalid_request");
    client.socket.send(JSON.stringify({ target: "en", texts: Array(129).fill("a") }));
    assert.equal(ErrorResponseSchema.parse(await client.next()).error.code, "batch_too_large");
    client.socket.send(
      new TextEncoder().encode(JSON.stringify({ target: "en", texts: [ENGLISH] })),
    );
    TranslateResponseSchema.parse(await client.next());
    assert.equal(client.socket.readyState, WebSocket.OPEN);
    await close(client);
  });
});

Deno.test("GET /v1/ws/translate refuses a binary frame that is not UTF-8 instead of translating U+FFFD", async () => {
  await withService(async (service) => {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    const encode = (text: string) => new TextEncoder().encode(text);
    // "café" in ISO-8859-1: the é is the lone byte 0xE9.
    client.socket.send(
      new Uint8Array([...encode('{"target":"de","texts":["caf'), 0xe9, ...encode('"]}')]),
    );
    const error = ErrorResponseSchema.parse(await client.next());
    assert.deepEqual(
      [error.error.code, error.error.message],
      ["invalid_request", "the frame is not valid UTF-8"],
    );
    // The same frame in UTF-8 (with a byte-order mark) is translated on the same connection.
    client.socket.send(
      new Uint8Array([0xef, 0xbb, 0xbf, ...encode('{"target":"de","texts":["café"]}')]),
    );
    const reply = TranslateResponseSchema.parse(await client.next());
    assert.equal(reply.usage.input_chars, 4);
    const kept = service.history.list({ limit: 10 }).entries.map((entry) => entry.texts);
    assert.deepEqual(kept, [["café"]]);
    await close(client);
  });
});

Deno.test("GET /v1/ws/translate closes with 1009 on a frame over 1 MiB", async () => {
  await withService(async (service) => {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    client.socket.send(JSON.stringify({ target: "en", texts: ["a".repeat(1024 * 1024)] }));
    assert.equal((await client.closed).code, 1009);
  });
});

Deno.test("a frame over 64 MiB, the runtime's own limit, ends that connection and no other", async () => {
  await withService(async (service) => {
    const url = `${service.wsUrl}/v1/ws/translate?token=${service.token}`;
    const bystander = await connect(url);
    const client = await connect(url);
    client.socket.send("a".repeat(65 * 1024 * 1024));
    // Deno drops the connection without a close frame, before tolk sees the frame (README).
    assert.notEqual((await client.closed).code, 1000);
    bystander.socket.send(JSON.stringify({ target: "en", source: "en", texts: ["still here"] }));
    const reply = TranslateResponseSchema.parse(await bystander.next());
    assert.equal(reply.results[0].text, "still here");
    await close(bystander);
  });
});

Deno.test("GET /v1/ws/translate answers ws_unauthorized then closes 4401 after the token is revoked", async () => {
  await withService(async (service) => {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    service.store.update((s) => {
      s.api.token = null;
    });
    client.socket.send(JSON.stringify({ target: "en", texts: [ENGLISH] }));
    assert.equal(ErrorResponseSchema.parse(await client.next()).error.code, "ws_unauthorized");
    const closed = await client.closed;
    assert.equal(closed.code, 4401);
    assert.equal(closed.reason, "token revoked");
  });
});

Deno.test("GET /v1/ws/translate: a frame sent after another process revoked the token gets ws_unauthorized, then 4401", async () => {
  await withService(async (service) => {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    client.socket.send(JSON.stringify({ source: "en", target: "en", texts: [ENGLISH] }));
    TranslateResponseSchema.parse(await client.next());
    // Another store on the same file, as `tolk token revoke` in another process.
    new SettingsStore(service.configPath).update((s) => {
      s.api.token = null;
    });
    client.socket.send(JSON.stringify({ source: "en", target: "en", texts: [ENGLISH] }));
    assert.equal(ErrorResponseSchema.parse(await client.next()).error.code, "ws_unauthorized");
    assert.equal((await client.closed).code, 4401);
  });
});

Deno.test("GET /v1/ws/translate: a frame sent after the API was disabled is told so, as a new handshake would be, then 4401", async () => {
  await withService(async (service) => {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    service.store.update((s) => {
      s.api.enabled = false;
    });
    client.socket.send(JSON.stringify({ target: "en", texts: [ENGLISH] }));
    const { error } = ErrorResponseSchema.parse(await client.next());
    const closed = await client.closed;
    const handshake = await rawGet(service.url, `/v1/ws/translate?token=${service.token}`, {
      Host: "localhost",
      Upgrade: "websocket",
      ...HANDSHAKE_KEY,
    });
    const refusal = ErrorResponseSchema.parse(JSON.parse(handshake.body)).error;
    assert.deepEqual(error, refusal);
    assert.match(error.message, /disabled.*tolk api enable/);
    assert.equal(closed.code, 4401);
    assert.equal(closed.reason, "API disabled");
  });
});

Deno.test("GET /v1/ws/translate closes open sockets with 1001 when the service shuts down", async () => {
  const service = await startTranslationService();
  const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
  await service.stop();
  assert.equal((await client.closed).code, 1001);
});

Deno.test("GET /v1/ws/translate answers the frames it accepted before closing with 1001 at shutdown, and refuses later ones", async () => {
  const service = await startTranslationService();
  const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
  client.socket.send(JSON.stringify({ target: "de", texts: Array(16).fill(FRENCH) }));
  await new Promise((resolve) => setTimeout(resolve, 50)); // the server has the frame
  const stopped = service.stop();
  client.socket.send(JSON.stringify({ target: "de", texts: [FRENCH] }));
  assert.equal(TranslateResponseSchema.parse(await client.next()).results.length, 16);
  const refused = ErrorResponseSchema.parse(await client.next());
  assert.equal(refused.error.code, "engine_unavailable");
  assert.match(refused.error.message, /shutting down/);
  assert.equal((await client.closed).code, 1001);
  await stopped;
});

Deno.test("GET /v1/ws/translate: a client leaving mid-translation is no unexpected error", async () => {
  await withService(async (service) => {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    const long = Array(8).fill(FRENCH).join(" ");
    for (let frame = 0; frame < 2; frame++) {
      client.socket.send(JSON.stringify({ target: "de", texts: Array(16).fill(long) }));
    }
    await new Promise((resolve) => setTimeout(resolve, 200)); // the first is being translated
    await close(client);
    // The translation stops at its next segment batch, well within a second.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.ok(service.logs.some((line) => / ws closed after 2 frames$/.test(line)));
    assert.deepEqual(service.logs.filter((line) => /unexpected/.test(line)), []);
  });
});

Deno.test("a routine 503 from a named engine is rendered alike over HTTP and WebSocket, said once and not logged as unexpected", async () => {
  await withService(async (service) => {
    const request = { target: "de", texts: [FRENCH], options: { engine: "engine-one" } };
    const http = ErrorResponseSchema.parse(await (await postTranslate(service, request)).json());
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    client.socket.send(JSON.stringify(request));
    const frame = ErrorResponseSchema.parse(await client.next());
    await close(client);
    assert.deepEqual(frame, http);
    assert.equal(http.error.code, "engine_unavailable");
    assert.match(http.error.message, /^engine-one is unavailable: cannot reach /);
    assert.equal(http.error.message.split("is unavailable").length, 2, http.error.message);
    assert.deepEqual(service.logs.filter((line) => /unexpected|failed/.test(line)), []);
  });
});

const SUBPROTOCOL_FORMS = [
  {
    name: "the spec's bearer,<token> (no space, byte for byte)",
    header: (t: string) => `bearer,${t}`,
  },
  { name: "the browsers' bearer, <token>", header: (t: string) => `bearer, ${t}` },
];

Deno.test("GET /v1/ws/translate upgrades both subprotocol forms with 101 and Sec-WebSocket-Protocol: bearer", async () => {
  await withService(async (service) => {
    for (const form of SUBPROTOCOL_FORMS) {
      const connection = await rawUpgrade(service.url, "/v1/ws/translate", {
        Host: "localhost",
        Upgrade: "websocket",
        Connection: "Upgrade",
        ...HANDSHAKE_KEY,
        "Sec-WebSocket-Protocol": form.header(service.token),
      });
      try {
        assert.equal(connection.status, 101, form.name);
        assert.equal(connection.headers.get("sec-websocket-protocol"), "bearer", form.name);
        await connection.send(JSON.stringify({ target: "en", texts: [ENGLISH] }));
        const reply = TranslateResponseSchema.parse(JSON.parse(await connection.receive()));
        assert.equal(reply.results[0].text, ENGLISH, form.name);
      } finally {
        connection.close();
      }
    }
  });
});

Deno.test("GET /v1/ws/translate refuses a wrong token in either subprotocol form with 401", async () => {
  await withService(async (service) => {
    for (const form of SUBPROTOCOL_FORMS) {
      const response = await rawGet(service.url, "/v1/ws/translate", {
        Host: "localhost",
        Upgrade: "websocket",
        ...HANDSHAKE_KEY,
        "Sec-WebSocket-Protocol": form.header("wrong"),
      });
      assert.equal(response.status, 401, form.name);
      assert.equal(
        ErrorResponseSchema.parse(JSON.parse(response.body)).error.code,
        "ws_unauthorized",
      );
    }
  });
});

Deno.test("at shutdown a frame still at work past the bound gets a 1001 close, and new requests meanwhile are refused", async () => {
  // A model runner that lists its model and never answers a chat.
  const runner = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === "/api/tags") {
      return Response.json({ models: [{ name: "slow:latest", model: "slow:latest" }] });
    }
    if (pathname !== "/api/chat") return new Response(null, { status: 404 });
    return new Promise<Response>((resolve) =>
      setTimeout(() => resolve(new Response(null, { status: 500 })), 3000)
    );
  });
  const service = await startTranslationService({
    settings: {
      engines: {
        "engine-one": { base_url: `http://127.0.0.1:${runner.addr.port}`, status_cache_ms: 0 },
      },
    },
    statusTtlMs: 0,
    socketCloseMs: 300,
  });
  try {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    client.socket.send(
      JSON.stringify({ target: "de", texts: [FRENCH], options: { engine: "engine-one" } }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100)); // the frame waits on the runner
    const started = performance.now();
    const stopped = service.stop();
    const late = await postTranslate(service, { target: "de", texts: [FRENCH] });
    assert.equal(late.status, 503);
    assert.match(ErrorResponseSchema.parse(await late.json()).error.message, /shutting down/);
    assert.equal((await client.closed).code, 1001);
    assert.ok(
      performance.now() - started < 2000,
      "closed at the bound, not when the runner gave up",
    );
    await stopped;
  } finally {
    await runner.shutdown();
  }
});
