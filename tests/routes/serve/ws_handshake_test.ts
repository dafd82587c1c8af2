/**
 * The handshake of GET /v1/ws/translate, sent as real clients send it (Deno's WebSocket) and
 * byte for byte over TCP: every token carrier, the subprotocol forms, refusals before the upgrade.
 */
import assert from "node:assert/strict";
import { ENGLISH } from "../../support/sample_texts.ts";
import { ErrorResponseSchema, TranslateResponseSchema } from "../../../schemas/translation.ts";
import { rawGet, rawUpgrade, WEBSOCKET_KEY } from "../../support/raw_http.ts";
import { type Client, close, connect } from "../../support/ws_client.ts";
import {
  postTranslate,
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

Deno.test("GET /v1/ws/translate refuses a bad handshake with 401 ws_unauthorized before upgrading", async () => {
  await withService(async (service) => {
    for (const query of ["", "?token=wrong", "?access_token="]) {
      const response = await rawGet(service.url, `/v1/ws/translate${query}`, {
        Host: "localhost",
        Upgrade: "websocket",
        ...WEBSOCKET_KEY,
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
      ...WEBSOCKET_KEY,
    });
    assert.equal(response.status, 401);
    const { error } = ErrorResponseSchema.parse(JSON.parse(response.body));
    assert.equal(error.code, "ws_unauthorized");
    const http = await postTranslate(service, { target: "de", texts: [ENGLISH] });
    assert.equal(error.message, ErrorResponseSchema.parse(await http.json()).error.message);
    // As a checkout runs it (the README's `deno task tolk`), not a `tolk` that is not on the PATH,
    // and for this service's own settings file, asked for as FILE (its path names the user).
    assert.match(
      error.message,
      /disabled; enable it with `deno task tolk api enable --config FILE` \(FILE is the settings/,
    );
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
        ...WEBSOCKET_KEY,
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
        ...WEBSOCKET_KEY,
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

/** Offers as clients write them: RFC 6455 allows white space around the commas. */
const SUBPROTOCOL_OFFERS = [
  { name: "two spaces after the comma", header: (t: string) => `bearer,  ${t}`, status: 101 },
  { name: "tabs around the comma", header: (t: string) => `bearer\t,\t${t}`, status: 101 },
  {
    name: "another protocol after the token",
    header: (t: string) => `bearer, ${t}, v1`,
    status: 101,
  },
  // The pair is `bearer` then the token; anything else is not the form and carries no token.
  { name: "the token before bearer", header: (t: string) => `${t}, bearer`, status: 401 },
  { name: "another protocol first", header: (t: string) => `v1, bearer, ${t}`, status: 401 },
  // Subprotocol names are case-sensitive (RFC 6455 §11.3.4): an echoed `bearer` would fail a
  // client that offered `Bearer`.
  { name: "Bearer capitalised", header: (t: string) => `Bearer, ${t}`, status: 401 },
];

Deno.test("GET /v1/ws/translate reads the bearer subprotocol offer however it is spaced, and only as bearer then the token", async () => {
  await withService(async (service) => {
    for (const offer of SUBPROTOCOL_OFFERS) {
      const connection = await rawUpgrade(service.url, "/v1/ws/translate", {
        Host: "localhost",
        Upgrade: "websocket",
        Connection: "Upgrade",
        ...WEBSOCKET_KEY,
        "Sec-WebSocket-Protocol": offer.header(service.token),
      });
      connection.close();
      assert.equal(connection.status, offer.status, offer.name);
      const echoed = connection.headers.get("sec-websocket-protocol");
      assert.equal(echoed, offer.status === 101 ? "bearer" : null, offer.name);
    }
  });
});

/** Handshakes RFC 6455 §4.2.1 says to refuse: the server could not answer their client. */
const MALFORMED_HANDSHAKES = [
  { name: "version 8 (a draft's framing)", headers: { "Sec-WebSocket-Version": "8" } },
  { name: "no version", headers: { "Sec-WebSocket-Version": "" } },
  { name: "a key that is not base64", headers: { "Sec-WebSocket-Key": "not a key!" } },
  { name: "a key of 5 bytes", headers: { "Sec-WebSocket-Key": "c2hvcnQ=" } },
];

Deno.test("GET /v1/ws/translate refuses a handshake of another WebSocket version or with a malformed key with 400, naming version 13", async () => {
  await withService(async (service) => {
    for (const { name, headers } of MALFORMED_HANDSHAKES) {
      const connection = await rawUpgrade(service.url, `/v1/ws/translate?token=${service.token}`, {
        Host: "localhost",
        Upgrade: "websocket",
        Connection: "Upgrade",
        ...WEBSOCKET_KEY,
        ...headers,
      });
      connection.close();
      assert.equal(connection.status, 400, name);
      // RFC 6455 §4.4: a refused version is answered with the versions the server speaks.
      assert.equal(connection.headers.get("sec-websocket-version"), "13", name);
    }
  });
});
