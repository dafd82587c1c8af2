import assert from "node:assert/strict";
import {
  DetectResponseSchema,
  ErrorResponseSchema,
  HealthResponseSchema,
} from "../../schemas/translation.ts";
import { expectBody, expectError, postJson } from "../support/http_assertions.ts";
import { rawGet } from "../support/raw_http.ts";
import { type TestService, withTranslationService } from "../support/translation_service.ts";

function withService(
  fn: (service: TestService) => Promise<void>,
  settings?: Record<string, unknown>,
) {
  return withTranslationService(fn, { settings });
}

function detect(service: TestService, headers: Record<string, string>) {
  return postJson(`${service.url}/v1/detect`, { texts: ["Guten Morgen"] }, headers);
}

Deno.test("tolk serve accepts the token as X-Svc-Token or Authorization: Bearer", async () => {
  await withService(async (service) => {
    const carriers: Record<string, string>[] = [
      { "x-svc-token": service.token },
      { authorization: `Bearer ${service.token}` },
    ];
    for (const headers of carriers) {
      await expectBody(await detect(service, headers), 200, DetectResponseSchema);
    }
  });
});

const UNAUTHORIZED_CASES: { name: string; headers: Record<string, string> }[] = [
  { name: "no token", headers: {} },
  { name: "a wrong token", headers: { "x-svc-token": "wrong" } },
  {
    name: "a token one character short",
    headers: { "x-svc-token": "test-token-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
  },
  { name: "a wrong bearer", headers: { authorization: "Bearer nope" } },
  { name: "a basic scheme", headers: { authorization: "Basic dGVzdA==" } },
];

Deno.test("tolk serve answers 401 unauthorized for a missing or wrong token", async () => {
  await withService(async (service) => {
    for (const row of UNAUTHORIZED_CASES) {
      const response = await detect(service, row.headers);
      // RFC 9110: a 401 names a scheme that would do.
      assert.equal(response.headers.get("www-authenticate"), 'Bearer realm="tolk"', row.name);
      await expectError(response, 401, "unauthorized", null);
    }
    const query = await postJson(`${service.url}/v1/detect?token=${service.token}`, {
      texts: ["a"],
    });
    await expectError(query, 401, "unauthorized", null); // query tokens are for WebSockets only
  });
});

Deno.test("tolk serve applies a rotated or revoked token on the next request", async () => {
  await withService(async (service) => {
    const rotated = service.store.update((s) => {
      s.api.token = "rotated-token-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";
    }).api.token!;
    await expectError(await detect(service, { "x-svc-token": service.token }), 401, "unauthorized");
    await expectBody(await detect(service, { "x-svc-token": rotated }), 200, DetectResponseSchema);
    service.store.update((s) => {
      s.api.token = null;
    });
    await expectError(await detect(service, { "x-svc-token": rotated }), 401, "unauthorized");
  });
});

Deno.test("tolk serve keeps its settings while the settings file is gone, and reads it again once back", async () => {
  await withService(async (service) => {
    const saved = JSON.parse(await Deno.readTextFile(service.configPath));
    await Deno.remove(service.configPath);
    // The defaults would turn the API off: the token in force stays.
    await expectBody(
      await detect(service, { "x-svc-token": service.token }),
      200,
      DetectResponseSchema,
    );
    saved.api.token = "back-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";
    await Deno.writeTextFile(service.configPath, JSON.stringify(saved));
    await expectError(await detect(service, { "x-svc-token": service.token }), 401, "unauthorized");
  });
});

Deno.test("tolk serve refuses every authenticated endpoint while the API is disabled", async () => {
  await withService(async (service) => {
    const body = await expectError(
      await detect(service, { "x-svc-token": service.token }),
      401,
      "unauthorized",
    );
    assert.match(body.error.message, /tolk api enable/);
    await expectBody(await fetch(`${service.url}/v1/health`), 200, HealthResponseSchema);
  }, { api: { enabled: false, token: "test-token-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" } });
});

const HOST_CASES = [
  { host: "localhost", status: 200 },
  { host: "localhost:8765", status: 200 },
  { host: "127.0.0.1:1", status: 200 },
  { host: "[::1]:8765", status: 200 },
  { host: "evil.example", status: 403 },
  { host: "127.0.0.1.nip.io", status: 403 },
  { host: "localhost.evil.example:80", status: 403 },
];

Deno.test("tolk serve accepts only loopback names in the Host header", async () => {
  await withService(async (service) => {
    for (const row of HOST_CASES) {
      const response = await rawGet(service.url, "/v1/health", { Host: row.host });
      assert.equal(response.status, row.status, row.host);
      if (row.status === 403) {
        const body = ErrorResponseSchema.parse(JSON.parse(response.body));
        assert.equal(body.error.code, "host_not_allowed");
        assert.equal(
          body.error.message,
          "the Host header must name loopback (localhost, 127.0.0.0/8 or [::1], any port)",
        );
        assert.ok(response.headers.get("x-request-id"));
      }
    }
  });
});

const REQUEST_ID_CASES = [
  { sent: "client-id.42_x", echoed: true },
  { sent: "a".repeat(128), echoed: true },
  { sent: "a".repeat(129), echoed: false },
  { sent: "has space", echoed: false },
  { sent: "a=b", echoed: false },
];

Deno.test("tolk serve echoes a safe x-request-id and replaces an unsafe one with a UUID", async () => {
  await withService(async (service) => {
    for (const row of REQUEST_ID_CASES) {
      const response = await fetch(`${service.url}/v1/health`, {
        headers: { "x-request-id": row.sent },
      });
      await response.body?.cancel();
      const id = response.headers.get("x-request-id")!;
      if (row.echoed) assert.equal(id, row.sent);
      else {assert.match(
          id,
          /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        );}
    }
  });
});

Deno.test("tolk serve answers an unknown path with 404 not_found", async () => {
  await withService(async (service) => {
    await expectError(await fetch(`${service.url}/v1/nothing`), 404, "not_found");
    await expectError(await fetch(`${service.url}/health`), 404, "not_found");
  });
});

Deno.test("tolk serve writes an access line per request (an unknown path as no route), except for health probes", async () => {
  await withService(async (service) => {
    const health = await fetch(`${service.url}/v1/health`, { headers: { "x-request-id": "h-1" } });
    await health.body?.cancel();
    const missing = await fetch(`${service.url}/v1/nothing`, {
      headers: { "x-request-id": "m-1" },
    });
    await missing.body?.cancel();
    assert.equal(service.logs.some((line) => line.includes("h-1")), false);
    assert.ok(
      service.logs.some((line) => /^m-1 GET \(no route\) 404 \d+ms$/.test(line)),
      service.logs.join("\n"),
    );
  });
});
