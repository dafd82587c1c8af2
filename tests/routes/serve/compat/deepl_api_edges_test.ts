/**
 * Where DeepL's API answers differently from what a first reading of its main routes gives, as
 * DeepL's own mock server (DeepLcom/deepl-mock) and OpenAPI document answer it: POST on
 * /v2/languages, a full queue as DeepL's "too many requests", and a dictionary the glossary lacks.
 */
import assert from "node:assert/strict";
import * as deepl from "deepl-node";
import {
  DeepLErrorSchema,
  DeepLLanguagesResponseSchema,
} from "../../../../schemas/compat/deepl.ts";
import {
  BUSY_RETRY_AFTER_SECONDS,
  LONG_JOB,
  refusedWhileBusy,
  startOneSlotService,
} from "../../../support/busy_engine.ts";
import { deeplClient } from "../../../support/deepl_client.ts";
import { expectBody, postJson } from "../../../support/http_assertions.ts";
import { FRENCH } from "../../../support/sample_texts.ts";
import { withTranslationService as withService } from "../../../support/translation_service.ts";

Deno.test("POST /v1/compat/deepl/v2/languages answers as GET, type read from a form, JSON or the query", async () => {
  await withService(async (service) => {
    const url = `${service.url}/v1/compat/deepl/v2/languages`;
    const headers = { authorization: `DeepL-Auth-Key ${service.token}` };
    const get = (query: string) =>
      fetch(`${url}${query}`, { headers }).then((response) =>
        expectBody(response, 200, DeepLLanguagesResponseSchema)
      );
    const [sources, targets] = [await get(""), await get("?type=target")];
    const post = async (init: RequestInit, query = "") =>
      await expectBody(
        await fetch(`${url}${query}`, {
          method: "POST",
          ...init,
          headers: { ...headers, ...init.headers },
        }),
        200,
        DeepLLanguagesResponseSchema,
      );
    assert.deepEqual(await post({}), sources);
    assert.deepEqual(await post({ body: new URLSearchParams({ type: "target" }) }), targets);
    assert.deepEqual(
      await post({
        body: JSON.stringify({ type: "target" }),
        headers: { "content-type": "application/json" },
      }),
      targets,
    );
    assert.deepEqual(await post({}, "?type=target"), targets);
    const bad = await fetch(url, {
      method: "POST",
      headers,
      body: new URLSearchParams({ type: "both" }),
    });
    assert.match((await expectBody(bad, 400, DeepLErrorSchema)).message, /type/);
  });
});

Deno.test("POST /v1/compat/deepl/v2/translate answers a full engine queue as DeepL's 429 {message}, with Retry-After", async () => {
  // DeepL's OpenAPI answers an overloaded service with 429 (deepl-node's TooManyRequestsError:
  // "DeepL servers are currently experiencing high load"); its 503 is no status of /v2/translate.
  const service = await startOneSlotService();
  try {
    const call = (texts: string[]) =>
      postJson(
        `${service.url}/v1/compat/deepl/v2/translate`,
        { text: texts, target_lang: "EN-US" },
        {
          authorization: `DeepL-Auth-Key ${service.token}`,
        },
      );
    const refused = await refusedWhileBusy(() => call(LONG_JOB), () => call([FRENCH]));
    assert.ok(refused, "one request overlapped another and was refused");
    assert.equal(refused.headers.get("retry-after"), String(BUSY_RETRY_AFTER_SECONDS));
    await expectBody(refused, 429, DeepLErrorSchema);
  } finally {
    await service.stop();
  }
});

Deno.test("GET /v1/compat/deepl/v3/glossaries/{id}/entries for a language pair the glossary lacks is DeepL's 404", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    const glossary = await deepL.createMultilingualGlossary("Pairs", [
      {
        sourceLangCode: "en",
        targetLangCode: "de",
        entries: new deepl.GlossaryEntries({ entries: { hello: "hallo" } }),
      },
    ]);
    const url = `${service.url}/v1/compat/deepl/v3/glossaries/${glossary.glossaryId}/entries`;
    const absent = await fetch(`${url}?source_lang=en&target_lang=ja`, {
      headers: { authorization: `DeepL-Auth-Key ${service.token}` },
    });
    assert.match((await expectBody(absent, 404, DeepLErrorSchema)).message, /dictionary/i);
    await assert.rejects(
      deepL.getMultilingualGlossaryDictionaryEntries(glossary, "en", "ja"),
      deepl.GlossaryNotFoundError,
    );
    const present = await deepL.getMultilingualGlossaryDictionaryEntries(glossary, "EN", "DE");
    assert.deepEqual(present.entries.entries(), { hello: "hallo" });
  });
});
