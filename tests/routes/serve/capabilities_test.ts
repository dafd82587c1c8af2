import assert from "node:assert/strict";
import { LANGUAGE_CODES } from "../../../schemas/languages.ts";
import { CapabilitiesResponseSchema } from "../../../schemas/translation.ts";
import { expectBody } from "../../support/http_assertions.ts";
import {
  FIXTURE_MODEL,
  postTranslate,
  withTranslationService,
} from "../../support/translation_service.ts";
import { withStandInService } from "../../support/stand_in_service.ts";

Deno.test("GET /v1/capabilities tells the truth about engines, models, languages and limits", async () => {
  await withTranslationService(async (service) => {
    const response = await fetch(`${service.url}/v1/capabilities`);
    assert.equal(response.headers.get("svc-api-version"), "2026-11-20");
    const body = await expectBody(response, 200, CapabilitiesResponseSchema);
    assert.deepEqual(body.engines.map((e) => e.id), [
      "local-llm",
      "engine-one",
      "engine-two",
      "compatible-api",
    ]);
    const local = body.engines[0];
    assert.equal(local.ready, true);
    assert.ok(local.models?.some((m) => m.id === FIXTURE_MODEL && m.ready));
    assert.deepEqual(body.languages, [...LANGUAGE_CODES]);
    assert.deepEqual(body.limits, {
      max_items: 128,
      max_chars_per_item: 8000,
      max_total_chars: 50000,
    });
    assert.equal(body.features.detect, true);
    assert.equal(body.features.websocket, true);
    assert.equal(body.features.html, true, "html is a registered format");
    assert.equal(body.features.markdown, true, "markdown is a registered format");
  });
});

Deno.test("GET /v1/capabilities follows an edit of the settings file made while the service runs", async () => {
  await withStandInService({}, async (service, runner) => {
    const engineOne = async () => {
      const response = await fetch(`${service.url}/v1/capabilities`);
      const body = await expectBody(response, 200, CapabilitiesResponseSchema);
      return body.engines.find((engine) => engine.id === "engine-one")!;
    };
    assert.equal((await engineOne()).ready, true);
    // The user points engine-one elsewhere in the file (written whole, as an editor saves).
    const settings = JSON.parse(await Deno.readTextFile(service.configPath));
    settings.engines["engine-one"].base_url = "http://127.0.0.1:9";
    await Deno.writeTextFile(`${service.configPath}.new`, JSON.stringify(settings, null, 2));
    await Deno.rename(`${service.configPath}.new`, service.configPath);
    assert.equal((await engineOne()).ready, false);
    const chats = runner.chats.length;
    const refused = await postTranslate(service, {
      source: "fr",
      target: "de",
      texts: ["Bonjour"],
      options: { engine: "engine-one" },
    });
    assert.equal(refused.status, 503);
    assert.match(await refused.text(), /127\.0\.0\.1:9/);
    assert.equal(runner.chats.length, chats);
  });
});
