import assert from "node:assert/strict";
import { PageStateSchema, TokenRevealSchema } from "../../../schemas/settings_page.ts";
import { CapabilitiesResponseSchema } from "../../../schemas/translation.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import { startOllamaStandIn } from "../../support/ollama_stand_in.ts";
import { openSession, pageCall, WITH_LINK_KEY } from "../../support/settings_session.ts";
import {
  FIXTURE_MODEL,
  postTranslate,
  type TestService,
  withTranslationService,
} from "../../support/translation_service.ts";

const withService = (
  fn: (service: TestService, cookie: string) => Promise<void>,
  settings: Record<string, unknown> = {},
) =>
  withTranslationService(
    async (service) => await fn(service, await openSession(service)),
    { settings: { ...WITH_LINK_KEY, ...settings }, statusTtlMs: 0 },
  );

const SAMPLE = { source: "en", target: "fr", texts: ["Good morning."] };

/** An open WebSocket with `token`, and its close event. */
async function openSocket(service: TestService, token: string) {
  const socket = new WebSocket(`${service.wsUrl}/v1/ws/translate`, ["bearer", token]);
  const closed = new Promise<CloseEvent>((resolve) => socket.addEventListener("close", resolve));
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error("WebSocket failed to open"));
  });
  return { socket, closed };
}

Deno.test("GET /settings/api/state lists engines in order with readiness, and the local models", async () => {
  await withService(async (service, cookie) => {
    const state = await expectBody(
      await pageCall(service, "state", { cookie }),
      200,
      PageStateSchema,
    );
    assert.deepEqual(state.api, { enabled: true, has_token: true });
    assert.deepEqual(state.engines.map((engine) => engine.id), [
      "local-llm",
      "engine-one",
      "engine-two",
      "compatible-api",
    ]);
    const builtin = state.engines[0];
    assert.equal(builtin.ready, true);
    assert.equal(builtin.model, FIXTURE_MODEL);
    assert.equal(builtin.base_url, null);
    assert.equal(state.engines[1].ready, false);
    assert.match(state.engines[1].base_url ?? "", /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(state.local_models.some((model) => model.id === FIXTURE_MODEL && model.valid));
    assert.equal(state.base_url, service.url);
    assert.deepEqual(
      state.compat_base_urls.map((compat) => compat.base_url).sort(),
      ["deepl", "deeplx", "libre"].map((name) => `${service.url}/v1/compat/${name}`),
      "every compatibility family the route table registers, URL-only ones aside",
    );
    assert.ok(!JSON.stringify(state).includes(service.token), "the state never holds the token");
  });
});

Deno.test("the page turns the API off and on, and /v1/translate follows at once", async () => {
  await withService(async (service, cookie) => {
    const off = await pageCall(service, "api", { cookie, body: { enabled: false } });
    assert.equal((await expectBody(off, 200, PageStateSchema)).api.enabled, false);
    await expectError(await postTranslate(service, SAMPLE), 401, "unauthorized");
    const on = await pageCall(service, "api", { cookie, body: { enabled: true } });
    assert.equal((await expectBody(on, 200, PageStateSchema)).api.enabled, true);
    assert.equal((await postTranslate(service, SAMPLE)).status, 200);
  });
});

Deno.test("enabling the API from the page makes a token when there is none", async () => {
  await withService(async (service, cookie) => {
    const state = await expectBody(
      await pageCall(service, "api", { cookie, body: { enabled: true } }),
      200,
      PageStateSchema,
    );
    assert.deepEqual(state.api, { enabled: true, has_token: true });
    const { token } = await expectBody(
      await pageCall(service, "token/reveal", { cookie, body: {} }),
      200,
      TokenRevealSchema,
    );
    assert.match(token ?? "", /^[A-Za-z0-9_-]{43}$/);
    assert.equal(service.store.read().api.token, token);
  }, { api: { enabled: false, token: null } });
});

Deno.test("Rotate and Revoke from the page close open WebSockets with 4401 and switch HTTP tokens", async () => {
  await withService(async (service, cookie) => {
    for (const action of ["token/rotate", "token/revoke"]) {
      const before = service.store.read().api.token!;
      const open = await openSocket(service, before);
      await expectBody(await pageCall(service, action, { cookie, body: {} }), 200, PageStateSchema);
      open.socket.send(JSON.stringify(SAMPLE));
      assert.equal((await open.closed).code, 4401, action);
      await expectError(
        await postTranslate(service, SAMPLE, { "x-svc-token": before }),
        401,
        "unauthorized",
      );
      const after = service.store.read().api.token;
      if (action === "token/rotate") {
        assert.notEqual(after, before);
        assert.equal((await postTranslate(service, SAMPLE, { "x-svc-token": after! })).status, 200);
      } else {
        assert.equal(after, null);
      }
    }
  });
});

const REFUSED_ADDRESSES = [
  { name: "another machine", base_url: "http://192.168.1.20:11434" },
  { name: "a public name", base_url: "https://api.example.com" },
  { name: "not a URL", base_url: "localhost:11434" },
  { name: "another scheme", base_url: "ftp://127.0.0.1:21" },
];

Deno.test("an engine address that is not loopback is refused with a message and nothing changes", async () => {
  await withService(async (service, cookie) => {
    const before = Deno.readTextFileSync(service.configPath);
    for (const row of REFUSED_ADDRESSES) {
      const response = await pageCall(service, "engines", {
        cookie,
        body: { engines: { "engine-one": { base_url: row.base_url } } },
      });
      const body = await expectError(
        response,
        400,
        "invalid_request",
        "engines.engine-one.base_url",
      );
      assert.match(body.error.message, /loopback/, row.name);
    }
    assert.equal(Deno.readTextFileSync(service.configPath), before);
  });
});

// The engines append their paths to the address (`${root}/api/tags`): after a query or a fragment
// those paths would land in it, and every request would go to the address's own path.
Deno.test("an engine address with a query or a fragment is refused with a message and nothing changes", async () => {
  await withService(async (service, cookie) => {
    const before = Deno.readTextFileSync(service.configPath);
    for (const base_url of ["http://127.0.0.1:11434/?key=1", "http://127.0.0.1:11434/#models"]) {
      const response = await pageCall(service, "engines", {
        cookie,
        body: { engines: { "engine-one": { base_url } } },
      });
      const body = await expectError(
        response,
        400,
        "invalid_request",
        "engines.engine-one.base_url",
      );
      assert.match(body.error.message, /query or a fragment/, base_url);
    }
    assert.equal(Deno.readTextFileSync(service.configPath), before);
  });
});

Deno.test("a loopback engine address from the page reaches the running service at once", async () => {
  const standIn = startOllamaStandIn();
  try {
    await withService(async (service, cookie) => {
      const response = await pageCall(service, "engines", {
        cookie,
        body: { engines: { "engine-one": { base_url: standIn.baseUrl, model: null } } },
      });
      const state = await expectBody(response, 200, PageStateSchema);
      const engineOne = state.engines.find((engine) => engine.id === "engine-one")!;
      assert.equal(engineOne.base_url, standIn.baseUrl);
      assert.equal(engineOne.ready, true);
      const translated = await postTranslate(service, {
        ...SAMPLE,
        options: { engine: "engine-one" },
      });
      assert.equal(translated.status, 200);
      assert.equal(standIn.chats.length, 1);
      assert.equal(service.store.read().engines["engine-one"].base_url, standIn.baseUrl);
    });
  } finally {
    await standIn.stop();
  }
});

Deno.test("the engine order set on the page is the order capabilities report", async () => {
  await withService(async (service, cookie) => {
    const order = ["engine-two", "local-llm", "compatible-api", "engine-one"];
    await expectBody(
      await pageCall(service, "engines", { cookie, body: { order } }),
      200,
      PageStateSchema,
    );
    const capabilities = await expectBody(
      await fetch(`${service.url}/v1/capabilities`),
      200,
      CapabilitiesResponseSchema,
    );
    assert.deepEqual(capabilities.engines.map((engine) => engine.id), order);
    const partial = await pageCall(service, "engines", {
      cookie,
      body: { order: ["engine-two"] },
    });
    await expectError(partial, 400, "invalid_request", "order");
  });
});

Deno.test("the built-in engine takes no address from the page", async () => {
  await withService(async (service, cookie) => {
    const response = await pageCall(service, "engines", {
      cookie,
      body: { engines: { "local-llm": { base_url: "http://127.0.0.1:1" } } },
    });
    await expectError(response, 400, "invalid_request", "engines.local-llm.base_url");
  });
});

Deno.test("the built-in engine's model from the page must be an <org>/<name> id; a refused one changes nothing", async () => {
  await withService(async (service, cookie) => {
    const before = Deno.readTextFileSync(service.configPath);
    for (const model of ["../../etc", "nllb", "a/b/c", "org/..", " tolk-test/tiny nllb "]) {
      const response = await pageCall(service, "engines", {
        cookie,
        body: { engines: { "local-llm": { model } } },
      });
      const body = await expectError(response, 400, "invalid_request", "engines.local-llm.model");
      assert.match(body.error.message, /^is not a model id/, model);
    }
    assert.equal(Deno.readTextFileSync(service.configPath), before);
    const saved = await pageCall(service, "engines", {
      cookie,
      body: { engines: { "local-llm": { model: ` ${FIXTURE_MODEL} ` } } },
    });
    assert.equal(saved.status, 200);
    assert.equal(service.store.read().engines["local-llm"].model, FIXTURE_MODEL);
  });
});

Deno.test("a change from the page while the settings file is gone recreates it from the settings in use: API on, token kept", async () => {
  await withService(async (service, cookie) => {
    const before = service.store.read();
    await Deno.remove(service.configPath);
    const order = ["engine-two", "local-llm", "engine-one", "compatible-api"];
    const state = await expectBody(
      await pageCall(service, "engines", { cookie, body: { order } }),
      200,
      PageStateSchema,
    );
    assert.deepEqual(state.api, { enabled: true, has_token: true });
    const after = service.store.read();
    assert.deepEqual(after.engines.order, order);
    assert.deepEqual(after.api, before.api, "not the defaults (API off, no token)");
    assert.equal(after.settings_page.link_key, before.settings_page.link_key);
    assert.equal((await postTranslate(service, SAMPLE)).status, 200);
  });
});
