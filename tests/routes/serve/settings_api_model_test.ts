/**
 * Engine model names typed on the settings page (or sent to its endpoint) that no server could
 * hold: a control character (a pasted newline) or more than 256 characters is refused when saved,
 * with a message next to the field, and nothing changes. Limit boundaries in one table.
 */
import assert from "node:assert/strict";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import { openSession, pageCall, WITH_LINK_KEY } from "../../support/settings_session.ts";
import { withTranslationService } from "../../support/translation_service.ts";
import { PageStateSchema } from "../../../schemas/settings_page.ts";

const REFUSED = [
  { name: "a newline inside", model: "qwen2.5\n:7b", says: /control character/ },
  { name: "a tab inside", model: "qwen2.5\t7b", says: /control character/ },
  { name: "a NUL", model: "qwen\u00002.5", says: /control character/ },
  { name: "a DEL", model: "qwen\u007f2.5", says: /control character/ },
  { name: "a C1 control", model: "qwen\u00852.5", says: /control character/ },
  { name: "257 characters", model: "m".repeat(257), says: /at most 256/ },
  { name: "5,000 characters", model: "m".repeat(5_000), says: /at most 256/ },
];

const ACCEPTED = [
  { name: "256 characters", model: "m".repeat(256) },
  { name: "a tag, a slash and a space", model: "hf.co/org/Model Q4_K_M:latest" },
  { name: "non-ASCII letters", model: "modèle-日本語" },
];

/** A pasted name's line break around it goes, as any space around it does. */
const TRIMMED = { model: "qwen2.5:7b\r\n", kept: "qwen2.5:7b" };

const ENGINES = ["engine-one", "engine-two", "compatible-api"] as const;

for (const engine of ENGINES) {
  Deno.test(`POST /settings/api/engines refuses a ${engine} model name with a control character or over 256 characters`, async () => {
    await withTranslationService(async (service) => {
      const cookie = await openSession(service);
      for (const row of REFUSED) {
        const response = await pageCall(service, "engines", {
          cookie,
          body: { engines: { [engine]: { model: row.model } } },
        });
        const body = await expectError(response, 400, "invalid_request", `engines.${engine}.model`);
        assert.match(body.error.message, row.says, row.name);
        assert.ok(!body.error.message.includes(row.model), `${row.name}: not echoed`);
        assert.equal(service.store.read().engines[engine].model, null, row.name);
      }
    }, { settings: WITH_LINK_KEY });
  });
}

Deno.test("POST /settings/api/engines keeps a model name of 256 characters, a tag, a space or non-ASCII, trimmed", async () => {
  await withTranslationService(async (service) => {
    const cookie = await openSession(service);
    for (const row of ACCEPTED) {
      const response = await pageCall(service, "engines", {
        cookie,
        body: { engines: { "engine-one": { model: row.model } } },
      });
      await expectBody(response, 200, PageStateSchema);
      assert.equal(service.store.read().engines["engine-one"].model, row.model, row.name);
    }
    const response = await pageCall(service, "engines", {
      cookie,
      body: { engines: { "engine-one": { model: TRIMMED.model } } },
    });
    await expectBody(response, 200, PageStateSchema);
    assert.equal(service.store.read().engines["engine-one"].model, TRIMMED.kept);
  }, { settings: WITH_LINK_KEY });
});

Deno.test("a settings file holding a model name with a newline is named as broken, the last good settings stay", async () => {
  await withTranslationService(async (service) => {
    const cookie = await openSession(service);
    const settings = JSON.parse(await Deno.readTextFile(service.configPath));
    settings.engines["engine-two"].model = "a\nb";
    await Deno.writeTextFile(service.configPath, JSON.stringify(settings));
    const state = await expectBody(
      await pageCall(service, "state", { cookie }),
      200,
      PageStateSchema,
    );
    assert.match(
      state.settings_file_problem ?? "",
      /engines\.engine-two\.model .*control character/,
    );
    assert.equal(state.engines.find((engine) => engine.id === "engine-two")?.model, null);
  }, { settings: WITH_LINK_KEY });
});
