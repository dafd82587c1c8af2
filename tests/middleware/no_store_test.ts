/**
 * Answers that carry the user's own text (history, glossaries, memory, DeepL's glossaries) say
 * `Cache-Control: no-store`, so no browser or proxy keeps a copy of private text — errors too.
 */
import assert from "node:assert/strict";
import { dataRequest } from "../support/data_requests.ts";
import { createGlossary } from "../support/glossary_service.ts";
import { addUserEntry } from "../support/memory_requests.ts";
import {
  postTranslate,
  type TestService,
  withTranslationService as withService,
} from "../support/translation_service.ts";

/** A GET of every data route that answers with stored text, named for the failure message. */
function privateReads(glossaryId: string): [string, string, "deepl"?][] {
  const deepl = "deepl";
  return [
    ["history list", "/v1/history"],
    ["history list, a bad cursor (error)", "/v1/history?cursor=nope"],
    ["memory entries", "/v1/memory/entries"],
    ["memory export", "/v1/memory/export?format=tmx"],
    ["glossary list", "/v1/glossaries"],
    ["one glossary", `/v1/glossaries/${glossaryId}`],
    ["glossary entries", `/v1/glossaries/${glossaryId}/entries?source_lang=en&target_lang=de`],
    ["DeepL glossary list", "/v1/compat/deepl/v3/glossaries", deepl],
    [
      "DeepL glossary entries",
      `/v1/compat/deepl/v3/glossaries/${glossaryId}/entries?source_lang=en&target_lang=de`,
      deepl,
    ],
  ];
}

async function seeded(service: TestService): Promise<string> {
  const translated = await postTranslate(service, {
    source: "en",
    target: "en",
    texts: ["my private note"],
  });
  assert.equal(translated.status, 200, await translated.text());
  await addUserEntry(service, "private source", "privates Ziel");
  return (await createGlossary(service, "Private", ["en", "de"], "secret\tGeheimnis\n"))
    .glossary_id;
}

Deno.test("GET answers that carry stored user text say Cache-Control: no-store", async () => {
  await withService(async (service) => {
    const glossaryId = await seeded(service);
    for (const [name, path, auth] of privateReads(glossaryId)) {
      // DeepL clients send their own header; dataRequest's X-Svc-Token is not read there.
      const headers: Record<string, string> = auth
        ? { authorization: `DeepL-Auth-Key ${service.token}` }
        : {};
      const response = await dataRequest(service, "GET", path, undefined, headers);
      await response.body?.cancel();
      assert.equal(response.status, name.endsWith("(error)") ? 400 : 200, name);
      assert.equal(response.headers.get("cache-control"), "no-store", name);
    }
  });
});

Deno.test("DELETE /v1/history and a refused history read say Cache-Control: no-store", async () => {
  await withService(async (service) => {
    const cleared = await dataRequest(service, "DELETE", "/v1/history");
    assert.equal(cleared.status, 204);
    assert.equal(cleared.headers.get("cache-control"), "no-store");
    const refused = await fetch(`${service.url}/v1/history`);
    await refused.body?.cancel();
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get("cache-control"), "no-store");
  });
});
