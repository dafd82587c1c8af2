/**
 * Two services on one data directory (a second `tolk serve` on another port, or one started by
 * another user session): each sees what the other writes, at its next request.
 */
import assert from "node:assert/strict";
import { dataRequest } from "../../support/data_requests.ts";
import { createGlossary } from "../../support/glossary_service.ts";
import { withTempDir } from "../../support/temp_dir.ts";
import {
  postTranslate,
  type TestService,
  withTranslationService,
} from "../../support/translation_service.ts";

/** The `Svc-Glossary-Report` of translating `text` en → de with the glossary on the built-in engine. */
async function glossaryReport(service: TestService, glossaryId: string, text: string) {
  const response = await postTranslate(service, {
    source: "en",
    target: "de",
    texts: [text],
    options: { glossary_id: glossaryId },
  });
  await response.body?.cancel();
  assert.equal(response.status, 200);
  return response.headers.get("svc-glossary-report");
}

Deno.test("a glossary changed through another service on the same data directory is used as changed", async () => {
  await withTempDir("tolk-shared-data-", async (dataDir) => {
    await withTranslationService(async (first) => {
      const { glossary_id } = await createGlossary(first, "Shared", ["en", "de"], "tolk\t\n");
      const text = "Open the database in tolk.";
      assert.equal(await glossaryReport(first, glossary_id, text), "matched=1; applied=1");
      await withTranslationService(async (second) => {
        const patched = await dataRequest(second, "PATCH", `/v1/glossaries/${glossary_id}`, {
          dictionaries: [{
            source_lang: "en",
            target_lang: "de",
            entries: "database\tDatenbank\ntolk\t\n",
            entries_format: "tsv",
          }],
        });
        assert.equal(patched.status, 200, await patched.text());
      }, { dataDir });
      assert.match(
        await glossaryReport(first, glossary_id, text) ?? "",
        /^matched=2;/,
        "the first service uses the dictionary as the second one left it",
      );
    }, { dataDir });
  });
});
