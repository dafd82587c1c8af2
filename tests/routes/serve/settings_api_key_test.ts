/**
 * The chat-completions engine's API key from the settings page: write-only. The page may set,
 * replace or clear it; no answer ever carries it back, only whether one is set.
 */
import assert from "node:assert/strict";
import { PageStateSchema } from "../../../schemas/settings_page.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import { openSession, pageCall, WITH_LINK_KEY } from "../../support/settings_session.ts";
import { type TestService, withTranslationService } from "../../support/translation_service.ts";

const withService = (fn: (service: TestService, cookie: string) => Promise<void>) =>
  withTranslationService(
    async (service) => await fn(service, await openSession(service)),
    { settings: WITH_LINK_KEY, statusTtlMs: 0 },
  );

const KEY = "sk-local-0123456789abcdef";

async function setKey(service: TestService, cookie: string, apiKey: string | null) {
  return await pageCall(service, "engines", {
    cookie,
    body: { engines: { "compatible-api": { api_key: apiKey } } },
  });
}

Deno.test("the page sets, replaces and clears the compatible-api key in the settings file, and never answers with it", async () => {
  await withService(async (service, cookie) => {
    const response = await setKey(service, cookie, `  ${KEY}\n`);
    const text = await response.text();
    assert.equal(response.status, 200, text);
    assert.ok(!text.includes(KEY), "the answer does not carry the key");
    const state = PageStateSchema.parse(JSON.parse(text));
    const card = state.engines.find((engine) => engine.id === "compatible-api");
    assert.equal(card?.has_api_key, true);
    assert.equal(service.store.read().engines["compatible-api"].api_key, KEY, "stored trimmed");

    const read = await (await pageCall(service, "state", { cookie })).text();
    assert.ok(!read.includes(KEY), "the state does not carry the key");

    await expectBody(await setKey(service, cookie, "sk-other"), 200, PageStateSchema);
    assert.equal(service.store.read().engines["compatible-api"].api_key, "sk-other");

    const cleared = await expectBody(await setKey(service, cookie, null), 200, PageStateSchema);
    assert.equal(cleared.engines.find((e) => e.id === "compatible-api")?.has_api_key, false);
    assert.equal(service.store.read().engines["compatible-api"].api_key, null);
  });
});

Deno.test("a change of the compatible-api address alone keeps its key", async () => {
  await withService(async (service, cookie) => {
    await expectBody(await setKey(service, cookie, KEY), 200, PageStateSchema);
    await expectBody(
      await pageCall(service, "engines", {
        cookie,
        body: { engines: { "compatible-api": { base_url: "http://127.0.0.1:9" } } },
      }),
      200,
      PageStateSchema,
    );
    assert.equal(service.store.read().engines["compatible-api"].api_key, KEY);
  });
});

Deno.test("an api_key for an engine that sends none is refused naming the field", async () => {
  await withService(async (service, cookie) => {
    const response = await pageCall(service, "engines", {
      cookie,
      body: { engines: { "engine-one": { api_key: KEY } } },
    });
    await expectError(response, 400, "invalid_request", "engines.engine-one.api_key");
    assert.equal(service.store.read().engines["engine-one"].api_key, undefined);
  });
});

Deno.test("a key no HTTP header can carry (not printable ASCII) is refused when saved, without quoting it", async () => {
  await withService(async (service, cookie) => {
    for (const key of ["sk-ключ-123", "sk-a\u0000b", "sk-line\nbreak"]) {
      const response = await setKey(service, cookie, key);
      const text = await response.text();
      assert.equal(response.status, 400, text);
      const error = JSON.parse(text).error;
      assert.equal(error.param, "engines.compatible-api.api_key");
      assert.match(error.message, /printable ASCII/);
      assert.ok(!text.includes("sk-"), "the key is not quoted");
      assert.equal(service.store.read().engines["compatible-api"].api_key, null);
    }
  });
});
