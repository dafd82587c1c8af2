/**
 * The settings page's history switch: it shows `history.enabled`, and turning it off stops the
 * history at the next translation (the settings file says so too).
 */
import assert from "node:assert/strict";
import { HistoryPageSchema } from "../../../schemas/history.ts";
import { PageStateSchema } from "../../../schemas/settings_page.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import { openSession, pageCall, WITH_LINK_KEY } from "../../support/settings_session.ts";
import {
  postTranslate,
  type TestService,
  withTranslationService,
} from "../../support/translation_service.ts";

async function historyLength(service: TestService): Promise<number> {
  const response = await dataRequest(service, "GET", "/v1/history");
  return (await expectBody(response, 200, HistoryPageSchema)).data.length;
}

async function translate(service: TestService): Promise<void> {
  const response = await postTranslate(service, { source: "en", target: "en", texts: ["note"] });
  assert.equal(response.status, 200, await response.text());
}

Deno.test("the page turns the history off and on; translations follow at once", async () => {
  await withTranslationService(async (service) => {
    const cookie = await openSession(service);
    const shown = await expectBody(
      await pageCall(service, "state", { cookie }),
      200,
      PageStateSchema,
    );
    assert.deepEqual(shown.history, { enabled: true });
    const off = await pageCall(service, "history", { cookie, body: { enabled: false } });
    assert.deepEqual((await expectBody(off, 200, PageStateSchema)).history, { enabled: false });
    assert.equal(JSON.parse(await Deno.readTextFile(service.configPath)).history.enabled, false);
    await translate(service);
    assert.equal(await historyLength(service), 0);
    const on = await pageCall(service, "history", { cookie, body: { enabled: true } });
    assert.deepEqual((await expectBody(on, 200, PageStateSchema)).history, { enabled: true });
    await translate(service);
    assert.equal(await historyLength(service), 1);
  }, { settings: WITH_LINK_KEY });
});

Deno.test("POST /settings/api/history refuses a body without a boolean enabled", async () => {
  await withTranslationService(async (service) => {
    const cookie = await openSession(service);
    const refused: [unknown, string][] = [
      [{}, "enabled"],
      [{ enabled: "no" }, "enabled"],
      [{ enabled: false, extra: 1 }, "extra"],
    ];
    for (const [body, param] of refused) {
      await expectError(
        await pageCall(service, "history", { cookie, body }),
        400,
        "invalid_request",
        param,
      );
    }
    assert.equal(JSON.parse(await Deno.readTextFile(service.configPath)).history, undefined);
  }, { settings: WITH_LINK_KEY });
});

Deno.test("the page's History section says the translation memory is separate from it", async () => {
  await withTranslationService(async (service) => {
    const cookie = await openSession(service);
    const page = await fetch(`${service.url}/settings`, { headers: { cookie } });
    assert.equal(page.status, 200);
    const section = (await page.text()).match(
      /<section aria-labelledby="history-title">([\s\S]*?)<\/section>/,
    )?.[1].replace(/\s+/g, " ");
    assert.ok(section, "the page has a History section");
    // Turned off, or cleared, the history leaves what requests asked the memory to keep.
    assert.match(section, /translation memory is separate/);
    assert.match(section, /DELETE \/v1\/memory\/entries\/\{id\}/);
  }, { settings: WITH_LINK_KEY });
});
