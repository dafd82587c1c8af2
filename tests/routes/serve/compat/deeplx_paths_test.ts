/**
 * DeepLX's other translate paths, as its server serves them beside `/translate`: `/v1/translate`
 * (its Pro-account endpoint, the same shape) and `/v2/translate` (shaped as DeepL's official API:
 * clients that speak DeepL point at a DeepLX address), under tolk's DeepLX bases. tolk's own
 * `/v1/translate` is untouched: DeepLX's paths live under `/v1/compat/deeplx`.
 */
import assert from "node:assert/strict";
import * as deepl from "deepl-node";
import { DeepLTranslateResponseSchema } from "../../../../schemas/compat/deepl.ts";
import { DeepLXErrorSchema, DeepLXResponseSchema } from "../../../../schemas/compat/deeplx.ts";
import { HistoryPageSchema } from "../../../../schemas/history.ts";
import { dataRequest } from "../../../support/data_requests.ts";
import { expectBody, postJson } from "../../../support/http_assertions.ts";
import { FRENCH, GERMAN } from "../../../support/sample_texts.ts";
import {
  type TestService,
  withTranslationService as withService,
} from "../../../support/translation_service.ts";

/** The DeepLX bases a client may be given: the token in the query, or in the path. */
function bases(service: TestService): { url: string; query: string }[] {
  return [
    { url: `${service.url}/v1/compat/deeplx`, query: `?token=${service.token}` },
    { url: `${service.url}/v1/compat/t/${service.token}/deeplx`, query: "" },
  ];
}

Deno.test("POST /v1/compat/deeplx/v1/translate answers as /translate does, at both bases", async () => {
  await withService(async (service) => {
    const body = { text: FRENCH, source_lang: "auto", target_lang: "en" };
    for (const base of bases(service)) {
      const response = await postJson(`${base.url}/v1/translate${base.query}`, body);
      const answer = await expectBody(response, 200, DeepLXResponseSchema);
      assert.deepEqual([answer.source_lang, answer.target_lang], ["FR", "EN"]);
      assert.notEqual(answer.data, FRENCH);
    }
  });
});

Deno.test("POST /v1/compat/deeplx/v2/translate answers DeepL's shape, one translation per text", async () => {
  await withService(async (service) => {
    for (const base of bases(service)) {
      const url = `${base.url}/v2/translate${base.query}`;
      const json = await postJson(url, { text: [FRENCH, GERMAN], target_lang: "EN" });
      const answer = await expectBody(json, 200, DeepLTranslateResponseSchema);
      assert.deepEqual(
        answer.translations.map((translation) => translation.detected_source_language),
        ["FR", "DE"],
      );
      // DeepLX binds JSON whatever the type (a string body goes out as text/plain) and takes forms.
      const plain = await fetch(url, {
        method: "POST",
        body: JSON.stringify({ text: [FRENCH], target_lang: "EN" }),
      });
      assert.equal(
        (await expectBody(plain, 200, DeepLTranslateResponseSchema)).translations.length,
        1,
      );
      const form = await fetch(url, {
        method: "POST",
        body: new URLSearchParams({ text: GERMAN, target_lang: "EN" }),
      });
      const [translated] = (await expectBody(form, 200, DeepLTranslateResponseSchema)).translations;
      assert.equal(translated.detected_source_language, "DE");
    }
    // Kept as DeepLX's requests, the client that sent them, not DeepL's.
    const history = await dataRequest(service, "GET", "/v1/history?client=deeplx&limit=200");
    assert.equal((await expectBody(history, 200, HistoryPageSchema)).data.length, 6);
  });
});

Deno.test("deepl-node pointed at /v1/compat/deeplx translates with the token as its key", async () => {
  await withService(async (service) => {
    const client = new deepl.DeepLClient(service.token, {
      serverUrl: `${service.url}/v1/compat/deeplx`,
      maxRetries: 0,
      minTimeout: 60_000,
    });
    const result = await client.translateText(FRENCH, null, "en-US");
    assert.equal(result.detectedSourceLang, "fr");
    assert.notEqual(result.text, FRENCH);
  });
});

Deno.test("POST /v1/compat/deeplx/v1/translate and /v2/translate refuse a bad token with 401 {code, message}", async () => {
  await withService(async (service) => {
    for (const path of ["/v1/translate", "/v2/translate"]) {
      for (
        const url of [
          `${service.url}/v1/compat/deeplx${path}`,
          `${service.url}/v1/compat/deeplx${path}?token=wrong`,
          `${service.url}/v1/compat/t/wrong/deeplx${path}`,
        ]
      ) {
        const response = await postJson(url, { text: [FRENCH], target_lang: "EN" });
        const answer = await expectBody(response, 401, DeepLXErrorSchema);
        assert.equal(answer.code, 401, url);
      }
    }
  });
});
