/**
 * `history.enabled: false` in the settings file: no translation is kept in the history, whatever
 * route it came by, and the switch is read while the service runs (as the token is).
 */
import assert from "node:assert/strict";
import { HistoryPageSchema } from "../../../schemas/history.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody } from "../../support/http_assertions.ts";
import {
  postTranslate,
  type TestService,
  withTranslationService as withService,
} from "../../support/translation_service.ts";

async function historyIds(service: TestService): Promise<string[]> {
  const page = await expectBody(
    await dataRequest(service, "GET", "/v1/history"),
    200,
    HistoryPageSchema,
  );
  return page.data.map((row) => row.id);
}

/** Translates en → en (no engine) by the API and by a compat route; both must succeed. */
async function translateTwice(service: TestService, text: string): Promise<void> {
  const own = await postTranslate(service, { source: "en", target: "en", texts: [text] });
  assert.equal(own.status, 200, await own.text());
  const libre = await fetch(`${service.url}/v1/compat/libre/translate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ q: text, source: "en", target: "en", api_key: service.token }),
  });
  assert.equal(libre.status, 200, await libre.text());
}

Deno.test("history.enabled false keeps no translation of /v1/translate or a compat route", async () => {
  await withService(async (service) => {
    await translateTwice(service, "not for the history");
    assert.deepEqual(await historyIds(service), []);
  }, { settings: { history: { enabled: false } } });
});

Deno.test("history.enabled is read while the service runs: off, then on again", async () => {
  await withService(async (service) => {
    await translateTwice(service, "kept");
    assert.equal((await historyIds(service)).length, 2);
    service.store.update((settings) => settings.history.enabled = false);
    await translateTwice(service, "not kept");
    assert.equal((await historyIds(service)).length, 2, "nothing new while off");
    service.store.update((settings) => settings.history.enabled = true);
    await translateTwice(service, "kept again");
    assert.equal((await historyIds(service)).length, 4);
  });
});
