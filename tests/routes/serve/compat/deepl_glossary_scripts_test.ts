/**
 * DeepL's glossaries have one Chinese, `zh`: a dictionary read or deleted with the other script's
 * spelling is the one a translation with that pair would use (the exact script first, then the
 * other), while a write keeps the script it names (tolk keeps the two apart).
 */
import assert from "node:assert/strict";
import * as deepl from "deepl-node";
import { createTraditionalGlossary, deeplClient } from "../../../support/deepl_client.ts";
import { withTranslationService as withService } from "../../../support/translation_service.ts";

const SIMPLIFIED = new deepl.GlossaryEntries({ entries: { database: "数据库" } });
const TRADITIONAL = new deepl.GlossaryEntries({ entries: { database: "資料庫" } });

Deno.test("deepl-node reads a zh glossary's entries as zh-Hant and a zh-Hant one's as zh", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    const v2 = await createTraditionalGlossary(deepL, SIMPLIFIED);
    const asTraditional = await deepL.getMultilingualGlossaryDictionaryEntries(
      v2.glossaryId,
      "en",
      "zh-Hant",
    );
    assert.deepEqual(asTraditional.entries.entries(), { database: "数据库" });
    assert.equal(asTraditional.targetLangCode.toLowerCase(), "zh");
    const v3 = await deepL.createMultilingualGlossary("Traditional", [
      { sourceLangCode: "zh-Hant", targetLangCode: "en", entries: TRADITIONAL },
    ]);
    const asZh = await deepL.getMultilingualGlossaryDictionaryEntries(v3, "zh", "en");
    assert.deepEqual(asZh.entries.entries(), { database: "資料庫" });
    assert.equal(asZh.sourceLangCode.toLowerCase(), "zh-hant");
  });
});

Deno.test("deepl-node reads each script's own dictionary when a glossary has both", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    const glossary = await deepL.createMultilingualGlossary("Both", [
      { sourceLangCode: "en", targetLangCode: "zh", entries: SIMPLIFIED },
      { sourceLangCode: "en", targetLangCode: "zh-Hant", entries: TRADITIONAL },
    ]);
    const hans = await deepL.getMultilingualGlossaryDictionaryEntries(glossary, "en", "zh-Hans");
    const hant = await deepL.getMultilingualGlossaryDictionaryEntries(glossary, "en", "zh-Hant");
    assert.deepEqual(hans.entries.entries(), { database: "数据库" });
    assert.deepEqual(hant.entries.entries(), { database: "資料庫" });
    // Both, unfiltered.
    const all = await fetch(
      `${service.url}/v1/compat/deepl/v3/glossaries/${glossary.glossaryId}/entries`,
      {
        headers: { authorization: `DeepL-Auth-Key ${service.token}` },
      },
    ).then((response) => response.json());
    assert.equal(all.dictionaries.length, 2);
  });
});

Deno.test("deepl-node deletes a zh dictionary named zh-Hant, and still refuses a pair the glossary lacks", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    const glossary = await deepL.createMultilingualGlossary("Two", [
      { sourceLangCode: "en", targetLangCode: "zh", entries: SIMPLIFIED },
      { sourceLangCode: "en", targetLangCode: "de", entries: SIMPLIFIED },
    ]);
    await assert.rejects(
      deepL.getMultilingualGlossaryDictionaryEntries(glossary, "en", "ja"),
      deepl.GlossaryNotFoundError,
    );
    await deepL.deleteMultilingualGlossaryDictionary(glossary, "en", "zh-Hant");
    const left = await deepL.getMultilingualGlossary(glossary.glossaryId);
    assert.deepEqual(left.dictionaries.map((d) => d.targetLangCode), ["de"]);
  });
});

Deno.test("deepl-node's PUT of a zh-Hant dictionary beside a zh one adds a second dictionary", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    const glossary = await deepL.createMultilingualGlossary("Chinese", [
      { sourceLangCode: "en", targetLangCode: "zh", entries: SIMPLIFIED },
    ]);
    await deepL.replaceMultilingualGlossaryDictionary(glossary, {
      sourceLangCode: "en",
      targetLangCode: "zh-Hant",
      entries: TRADITIONAL,
    });
    const after = await deepL.getMultilingualGlossary(glossary.glossaryId);
    assert.deepEqual(after.dictionaries.map((d) => d.targetLangCode.toLowerCase()), [
      "zh",
      "zh-hant",
    ]);
    const hans = await deepL.getMultilingualGlossaryDictionaryEntries(glossary, "en", "zh");
    assert.deepEqual(hans.entries.entries(), { database: "数据库" });
  });
});
