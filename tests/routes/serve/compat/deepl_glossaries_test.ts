import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import * as deepl from "deepl-node";
import { deeplClient } from "../../../support/deepl_client.ts";
import {
  DeepLErrorSchema,
  DeepLGlossaryListSchema,
  DeepLGlossarySchema,
} from "../../../../schemas/compat/deepl.ts";
import { GlossarySchema } from "../../../../schemas/glossary.ts";
import { expectBody } from "../../../support/http_assertions.ts";
import {
  type TestService,
  withTranslationService as withService,
} from "../../../support/translation_service.ts";

/**
 * The `Svc-Glossary-Report` of a DeepL form translation of `text` (en → de) with a glossary,
 * named in `field` (`glossary_id`, or `glossary_ids` as deepl-node sends its glossaryIds).
 */
async function glossaryReport(
  service: TestService,
  text: string,
  glossaryId: string,
  field: "glossary_id" | "glossary_ids" = "glossary_id",
) {
  const response = await fetch(`${service.url}/v1/compat/deepl/v2/translate`, {
    method: "POST",
    headers: { authorization: `DeepL-Auth-Key ${service.token}` },
    body: new URLSearchParams({ text, source_lang: "EN", target_lang: "DE", [field]: glossaryId }),
  });
  await response.body?.cancel();
  assert.equal(response.status, 200);
  return response.headers.get("svc-glossary-report") ?? "";
}

/** A glossary of one English → German dictionary, made through deepl-node. */
function enToDe(deepL: deepl.DeepLClient, name: string, tsv: string) {
  return deepL.createMultilingualGlossary(name, [
    { sourceLangCode: "en", targetLangCode: "de", entries: new deepl.GlossaryEntries({ tsv }) },
  ]);
}

const ENTRIES = new deepl.GlossaryEntries({ entries: { tolk: "tolk", hello: "hallo" } });

Deno.test("deepl-node creates, lists, reads and deletes a v3 glossary that is one of tolk's glossaries", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    const created = await deepL.createMultilingualGlossary("Terms", [
      { sourceLangCode: "en", targetLangCode: "de", entries: ENTRIES },
      { sourceLangCode: "EN", targetLangCode: "zh-HANT", entries: ENTRIES },
    ]);
    assert.equal(created.name, "Terms");
    assert.deepEqual(
      created.dictionaries.map((d) => [d.sourceLangCode, d.targetLangCode, d.entryCount]),
      [["en", "de", 2], ["en", "zh-hant", 2]],
    );
    // The same glossary through tolk's own API.
    const own = await expectBody(
      await fetch(`${service.url}/v1/glossaries/${created.glossaryId}`, {
        headers: { "x-svc-token": service.token },
      }),
      200,
      GlossarySchema,
    );
    assert.deepEqual(own.dictionaries.map((d) => d.target_lang), ["de", "zh-Hant"]);

    const listed = await deepL.listMultilingualGlossaries();
    assert.deepEqual(listed.map((g) => g.glossaryId), [created.glossaryId]);
    const got = await deepL.getMultilingualGlossary(created.glossaryId);
    assert.equal(got.creationTime.getTime(), created.creationTime.getTime());
    const entries = await deepL.getMultilingualGlossaryDictionaryEntries(
      created,
      "en",
      "de",
    );
    assert.deepEqual(entries.entries.entries(), { tolk: "tolk", hello: "hallo" });

    await deepL.deleteMultilingualGlossary(created);
    await assert.rejects(
      deepL.getMultilingualGlossary(created.glossaryId),
      deepl.GlossaryNotFoundError,
    );
    assert.deepEqual(await deepL.listMultilingualGlossaries(), []);
  });
});

Deno.test("deepl-node renames a glossary and updates, replaces and deletes its dictionaries", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    const created = await deepL.createMultilingualGlossary("Old", [
      { sourceLangCode: "en", targetLangCode: "fr", entries: ENTRIES },
    ]);
    const renamed = await deepL.updateMultilingualGlossaryName(created, "New");
    assert.equal(renamed.name, "New");
    const updated = await deepL.updateMultilingualGlossaryDictionary(created, {
      sourceLangCode: "en",
      targetLangCode: "ja",
      entries: new deepl.GlossaryEntries({ entries: { tolk: "トルク" } }),
    });
    assert.deepEqual(updated.dictionaries.map((d) => d.targetLangCode), ["fr", "ja"]);
    const replaced = await deepL.replaceMultilingualGlossaryDictionary(created, {
      sourceLangCode: "en",
      targetLangCode: "fr",
      entries: new deepl.GlossaryEntries({ entries: { one: "un" } }),
    });
    assert.equal(replaced.entryCount, 1);
    const merged = await deepL.updateMultilingualGlossaryDictionary(created, {
      sourceLangCode: "en",
      targetLangCode: "ja",
      entries: new deepl.GlossaryEntries({ entries: { TOLK: "トーク", new: "新" } }),
    });
    assert.ok(merged.dictionaries.some((d) => d.targetLangCode === "ja" && d.entryCount === 2));
    const ja = await deepL.getMultilingualGlossaryDictionaryEntries(created, "en", "ja");
    assert.deepEqual(ja.entries.entries(), { TOLK: "トーク", new: "新" }, "PATCH merges");
    const csv = await deepL.updateMultilingualGlossaryDictionaryWithCsv(
      created,
      "en",
      "es",
      '"hello, world",hola mundo\n',
    );
    assert.ok(csv.dictionaries.some((d) => d.targetLangCode === "es" && d.entryCount === 1));
    await deepL.deleteMultilingualGlossaryDictionary(created, "en", "ja");
    // Again: the glossary is there, the dictionary is not, and the error says which.
    await assert.rejects(
      deepL.deleteMultilingualGlossaryDictionary(created, "en", "ja"),
      (error: Error) => /no en→ja dictionary/.test(error.message),
    );
    const after = await deepL.getMultilingualGlossary(created.glossaryId);
    assert.deepEqual(after.dictionaries.map((d) => d.targetLangCode), ["es", "fr"]);
  });
});

Deno.test("POST /v1/compat/deepl/v3/glossaries answers bad dictionaries in DeepL's shape, naming the line", async () => {
  await withService(async (service) => {
    const post = (form: Record<string, string>) =>
      fetch(`${service.url}/v1/compat/deepl/v3/glossaries`, {
        method: "POST",
        headers: { authorization: `DeepL-Auth-Key ${service.token}` },
        body: new URLSearchParams(form),
      });
    const dictionary = {
      "dictionaries[0].source_lang": "en",
      "dictionaries[0].target_lang": "de",
      "dictionaries[0].entries_format": "tsv",
    };
    const cases: {
      name: string;
      form: Record<string, string>;
      status: number;
      message?: RegExp;
    }[] = [
      { name: "no name", form: { ...dictionary, "dictionaries[0].entries": "a\tb" }, status: 400 },
      { name: "no dictionary", form: { name: "x" }, status: 400 },
      {
        name: "a line without a tab",
        form: { name: "x", ...dictionary, "dictionaries[0].entries": "a\tb\nbroken" },
        status: 400,
        message: /line 2/,
      },
      {
        name: "an unknown language",
        form: {
          name: "x",
          ...dictionary,
          "dictionaries[0].target_lang": "pt",
          "dictionaries[0].entries": "a\tb",
        },
        status: 400,
      },
    ];
    for (const testCase of cases) {
      const body = await expectBody(await post(testCase.form), testCase.status, DeepLErrorSchema);
      if (testCase.message) assert.match(body.message, testCase.message, testCase.name);
    }
    const created = await expectBody(
      await post({ name: "ok", ...dictionary, "dictionaries[0].entries": "a\tb" }),
      201,
      DeepLGlossarySchema,
    );
    await expectBody(
      await fetch(`${service.url}/v1/compat/deepl/v3/glossaries`, {
        headers: { authorization: `DeepL-Auth-Key ${service.token}` },
      }),
      200,
      DeepLGlossaryListSchema,
    );
    await expectBody(
      await fetch(`${service.url}/v1/compat/deepl/v3/glossaries/${created.glossary_id}x`, {
        headers: { authorization: `DeepL-Auth-Key ${service.token}` },
      }),
      404,
      DeepLErrorSchema,
    );
  });
});

Deno.test("deepl-node translates with a glossary: a term kept as itself (deepl-node refuses an empty target); an unknown id is DeepL's 400", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    const glossary = await enToDe(deepL, "Keep", "Tolkbox\tTolkbox");
    const result = await deepL.translateText("Tolkbox is a good tool.", "en", "de", {
      glossary: glossary.glossaryId,
    });
    assert.match(result.text, /Tolkbox/);
    assert.match(
      await glossaryReport(service, "Tolkbox is a good tool.", glossary.glossaryId),
      /matched=1; applied=1/,
    );
    await assert.rejects(
      deepL.translateText("Hello", "en", "de", { glossary: "no-such-glossary" }),
      (error: Error) => error instanceof deepl.DeepLError && /Bad request/.test(error.message),
    );
  });
});

Deno.test("deepl-node reads a glossary holding a term kept as it is (tolk's `tolk<TAB>`), v3 and v2", async () => {
  await withService(async (service) => {
    // Made through tolk's own API, as the README shows: "tolk" stays "tolk".
    const made = await fetch(`${service.url}/v1/glossaries`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-svc-token": service.token },
      body: JSON.stringify({
        name: "Keep",
        dictionaries: [{
          source_lang: "en",
          target_lang: "de",
          entries: "tolk\t\ndatabase\tDatenbank\n",
          entries_format: "tsv",
        }],
      }),
    });
    assert.equal(made.status, 201);
    const { glossary_id: id } = await made.json();
    const deepL = deeplClient(service);
    const v3 = await deepL.getMultilingualGlossaryDictionaryEntries(id, "en", "de");
    assert.deepEqual(v3.entries.entries(), { tolk: "tolk", database: "Datenbank" });
    const v2 = await deepL.getGlossaryEntries(id);
    assert.deepEqual(v2.entries(), { tolk: "tolk", database: "Datenbank" });
  });
});

Deno.test("deepl-node's glossaryIds apply the glossary; several are a 400 saying tolk applies one", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    const glossary = await enToDe(deepL, "Keep", "Tolkbox\tTolkbox");
    const text = "Tolkbox is a good tool.";
    // The request deepl-node sends for glossaryIds, with the report header it does not show.
    assert.match(
      await glossaryReport(service, text, glossary.glossaryId, "glossary_ids"),
      /matched=1; applied=1/,
    );
    const result = await deepL.translateText(text, "en", "de", {
      glossaryIds: [glossary.glossaryId],
    });
    assert.match(result.text, /Tolkbox/);
    const other = await enToDe(deepL, "Other", "tool\tWerkzeug");
    await assert.rejects(
      deepL.translateText(text, "en", "de", {
        glossaryIds: [glossary.glossaryId, other.glossaryId],
      }),
      (error: Error) =>
        error instanceof deepl.DeepLError && /one glossary per request/.test(error.message),
    );
  });
});

Deno.test("deepl-node's v2 glossaries (createGlossary and kin) are tolk's glossaries of one pair", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    const pairs = await deepL.getGlossaryLanguagePairs();
    assert.equal(pairs.length, 16 * 15);
    assert.ok(pairs.some((pair) => `${pair.sourceLang} ${pair.targetLang}` === "en zh-hant"));

    const created = await deepL.createGlossary("Keep", "en", "de", ENTRIES);
    assert.deepEqual(
      [created.name, created.ready, created.sourceLang, created.targetLang, created.entryCount],
      ["Keep", true, "en", "de", 2],
    );
    const own = await expectBody(
      await fetch(`${service.url}/v1/glossaries/${created.glossaryId}`, {
        headers: { "x-svc-token": service.token },
      }),
      200,
      GlossarySchema,
    );
    assert.deepEqual(own.dictionaries.map((d) => [d.source_lang, d.target_lang]), [["en", "de"]]);
    assert.equal(
      (await deepL.getGlossary(created.glossaryId)).creationTime.getTime(),
      created.creationTime.getTime(),
    );
    const entries = await deepL.getGlossaryEntries(created);
    assert.deepEqual(entries.entries(), { tolk: "tolk", hello: "hallo" });
    // A v2 glossary's id in a translation: the service applies it (and deepl-node sends it).
    assert.match(await glossaryReport(service, "hello tolk", created.glossaryId), /matched=2/);
    await deepL.translateText("hello tolk", "en", "de", { glossary: created });

    // A glossary of two pairs is v3's: not listed in v2, and refused by name.
    const both = await deepL.createMultilingualGlossary("Both", [
      { sourceLangCode: "en", targetLangCode: "de", entries: ENTRIES },
      { sourceLangCode: "en", targetLangCode: "fr", entries: ENTRIES },
    ]);
    assert.deepEqual(
      (await deepL.listGlossaries()).map((glossary) => glossary.glossaryId),
      [created.glossaryId],
    );
    const refused = await expectBody(
      await fetch(`${service.url}/v1/compat/deepl/v2/glossaries/${both.glossaryId}`, {
        headers: { authorization: `DeepL-Auth-Key ${service.token}` },
      }),
      400,
      DeepLErrorSchema,
    );
    assert.match(refused.message, /2 dictionaries.*\/v3\/glossaries/);

    await deepL.deleteGlossary(created);
    await assert.rejects(deepL.getGlossary(created.glossaryId), deepl.GlossaryNotFoundError);
    await assert.rejects(
      deepL.createGlossary("Bad", "en", "xx" as deepl.TargetLanguageCode, ENTRIES),
      (error: Error) => error instanceof deepl.DeepLError,
    );
    for (
      const [fields, said] of [
        [{ source_lang: "en", target_lang: "de", entries: "a\tb" }, /name/],
        [
          { name: "N", source_lang: "en", target_lang: "de", entries: "a", entries_format: "xml" },
          /entries_format/,
        ],
        [{ name: "N", source_lang: "en", target_lang: "de", entries: "no tab here" }, /entries/],
      ] as const
    ) {
      const bad = await expectBody(
        await fetch(`${service.url}/v1/compat/deepl/v2/glossaries`, {
          method: "POST",
          headers: { authorization: `DeepL-Auth-Key ${service.token}` },
          body: new URLSearchParams(fields),
        }),
        400,
        DeepLErrorSchema,
      );
      assert.match(bad.message, said);
    }
    assert.deepEqual(await deepL.listGlossaries(), []);
  });
});

Deno.test("deepl-node creates a glossary from DeepL's four-column CSV (each line naming its languages)", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    const created = await deepL.createGlossaryWithCsv(
      "Four columns",
      "en",
      "de",
      Buffer.from('hello,hallo,en,de\r\n"tolk, the tool",tolk,EN,DE\r\n'),
    );
    assert.equal(created.entryCount, 2);
    const entries = await deepL.getGlossaryEntries(created);
    assert.deepEqual(entries.entries(), { hello: "hallo", "tolk, the tool": "tolk" });
    // A line naming other languages than the dictionary's is refused, with its line.
    await assert.rejects(
      deepL.createGlossaryWithCsv("Wrong", "en", "de", Buffer.from("a,b,en,de\nc,d,en,fr\n")),
      (error: Error) => /line 2/.test(error.message) && /"en" and "fr"/.test(error.message),
    );
  });
});
