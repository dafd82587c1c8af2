/**
 * `history.enabled: false` in the settings file: no translation is kept in the history, whatever
 * route it came by, and the switch is read while the service runs (as the token is).
 */
import assert from "node:assert/strict";
import { HistoryPageSchema } from "../../../schemas/history.ts";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { close, connect } from "../../support/ws_client.ts";
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

/** Translates en → en (no engine) by the API, a compat route and the WebSocket; all succeed. */
async function translateThrice(service: TestService, text: string): Promise<void> {
  const own = await postTranslate(service, { source: "en", target: "en", texts: [text] });
  assert.equal(own.status, 200, await own.text());
  const libre = await fetch(`${service.url}/v1/compat/libre/translate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ q: text, source: "en", target: "en", api_key: service.token }),
  });
  assert.equal(libre.status, 200, await libre.text());
  const socket = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
  socket.socket.send(JSON.stringify({ source: "en", target: "en", texts: [text] }));
  TranslateResponseSchema.parse(await socket.next());
  await close(socket);
}

Deno.test("history.enabled false keeps no translation of /v1/translate, a compat route or the WebSocket", async () => {
  await withService(async (service) => {
    await translateThrice(service, "not for the history");
    assert.deepEqual(await historyIds(service), []);
  }, { settings: { history: { enabled: false } } });
});

Deno.test("history.enabled is read while the service runs: off, then on again", async () => {
  await withService(async (service) => {
    await translateThrice(service, "kept");
    assert.equal((await historyIds(service)).length, 3);
    service.store.update((settings) => settings.history.enabled = false);
    await translateThrice(service, "not kept");
    assert.equal((await historyIds(service)).length, 3, "nothing new while off");
    service.store.update((settings) => settings.history.enabled = true);
    await translateThrice(service, "kept again");
    assert.equal((await historyIds(service)).length, 6);
  });
});
