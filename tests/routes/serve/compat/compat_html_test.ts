import assert from "node:assert/strict";
import * as deepl from "deepl-node";
import { deeplClient } from "../../../support/deepl_client.ts";
import { DeepLTranslateResponseSchema } from "../../../../schemas/compat/deepl.ts";
import { DeepLXResponseSchema } from "../../../../schemas/compat/deeplx.ts";
import { LibreTranslateResponseSchema } from "../../../../schemas/compat/libretranslate.ts";
import { expectBody, postJson } from "../../../support/http_assertions.ts";
import { withTranslationService as withService } from "../../../support/translation_service.ts";

const HTML = '<p>Bonjour <b>le monde</b>. <span translate="no">tolk</span></p>';

/** Every tag of `html`, in order (what a markup-preserving translation must give back). */
function tags(html: string): string[] {
  return html.match(/<[^>]+>/g) ?? [];
}

function assertMarkupKept(translated: string) {
  assert.deepEqual(tags(translated), tags(HTML), translated);
  assert.match(translated, /<span translate="no">tolk<\/span>/);
}

Deno.test("deepl-node tagHandling html keeps every tag and the translate=no span", async () => {
  await withService(async (service) => {
    const result = await deeplClient(service).translateText(HTML, "fr", "en-US", {
      tagHandling: "html",
    });
    assertMarkupKept(result.text);
    assert.equal(result.detectedSourceLang, "fr");
  });
});

Deno.test("deepl-node ignoreTags with tagHandling html keeps the named elements as sent", async () => {
  await withService(async (service) => {
    const result = await deeplClient(service).translateText(HTML, "fr", "en-US", {
      tagHandling: "html",
      ignoreTags: "B",
    });
    assertMarkupKept(result.text);
    assert.ok(result.text.includes("<b>le monde</b>"), result.text);
  });
});

Deno.test("deepl-node tagHandling xml keeps a CAT tool's empty and paired tags", async () => {
  const xml = 'Cliquez <x id="1"/> pour <g id="2">enregistrer</g> le fichier.';
  await withService(async (service) => {
    const result = await deeplClient(service).translateText(xml, "fr", "en-US", {
      tagHandling: "xml",
    });
    assert.deepEqual(tags(result.text), tags(xml), result.text);
  });
});

Deno.test("deepl-node's tag options reach format xml: an ignored element comes back as sent", async () => {
  const xml = "<doc><par>Cliquez pour enregistrer le fichier.</par>" +
    "<note>Brouillon interne, ne pas traduire.</note></doc>";
  await withService(async (service) => {
    const result = await deeplClient(service).translateText(xml, "fr", "en-US", {
      tagHandling: "xml",
      ignoreTags: ["note", "ph"],
      splittingTags: "par",
      nonSplittingTags: ["g"],
      outlineDetection: false,
    });
    assert.deepEqual(tags(result.text), tags(xml), result.text);
    assert.ok(result.text.includes("<note>Brouillon interne, ne pas traduire.</note>"));
  });
});

Deno.test("deepl-node tagHandlingVersion v2 refuses XML that is not well-formed, naming the text and where; v1 keeps it as sent", async () => {
  const broken = "Cliquez <b>ici</b>.\n<p>Cette balise est mal fermée</a>";
  await withService(async (service) => {
    const client = deeplClient(service);
    await assert.rejects(
      client.translateText(["<p>Bien formé.</p>", broken], "fr", "en-US", {
        tagHandling: "xml",
        tagHandlingVersion: "v2",
      }),
      (error: Error) => {
        assert.ok(error instanceof deepl.DeepLError, String(error));
        assert.match(
          error.message,
          /Tag handling parsing failed, please check input: text 1: Expected closing tag 'p' \(opened at line 2, column 1\) instead of closing tag 'a' at line 2, column 31\./,
        );
        return true;
      },
    );
    for (const version of ["v1", undefined] as const) {
      const kept = await client.translateText(broken, "fr", "en-US", {
        tagHandling: "xml",
        ...(version ? { tagHandlingVersion: version } : {}),
      });
      assert.deepEqual(tags(kept.text), tags(broken), `${version}: ${kept.text}`);
    }
    const html = await client.translateText(broken, "fr", "en-US", {
      tagHandling: "html",
      tagHandlingVersion: "v2",
    });
    assert.deepEqual(tags(html.text), tags(broken), "HTML is not parsed strictly");
  });
});

Deno.test("a DeepL answer names the tag_handling_version the request named, and only then", async () => {
  await withService(async (service) => {
    const translate = async (fields: Record<string, string>) =>
      await expectBody(
        await postJson(`${service.url}/v1/compat/deepl/v2/translate`, {
          text: ['Cliquez <x id="1"/> ici.'],
          target_lang: "EN-US",
          tag_handling: "xml",
          ...fields,
        }, { authorization: `DeepL-Auth-Key ${service.token}` }),
        200,
        DeepLTranslateResponseSchema,
      );
    const v2 = await translate({ tag_handling_version: "v2" });
    assert.equal(v2.translations[0].tag_handling_version, "v2");
    assert.deepEqual(tags(v2.translations[0].text), ['<x id="1"/>']);
    assert.equal(
      (await translate({ tag_handling_version: "v1" })).translations[0].tag_handling_version,
      "v1",
    );
    assert.ok(!("tag_handling_version" in (await translate({})).translations[0]));
  });
});

Deno.test("LibreTranslate format html and DeepLX tag_handling html keep every tag", async () => {
  await withService(async (service) => {
    const libre = await expectBody(
      await postJson(`${service.url}/v1/compat/libre/translate`, {
        q: HTML,
        source: "fr",
        target: "en",
        format: "html",
        api_key: service.token,
      }),
      200,
      LibreTranslateResponseSchema,
    );
    assertMarkupKept(libre.translatedText as string);
    const deeplx = await expectBody(
      await postJson(`${service.url}/v1/compat/deeplx/translate?token=${service.token}`, {
        text: HTML,
        source_lang: "FR",
        target_lang: "EN",
        tag_handling: "html",
      }),
      200,
      DeepLXResponseSchema,
    );
    assertMarkupKept(deeplx.data);
  });
});
