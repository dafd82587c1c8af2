/**
 * Where tolk's DeepL route answers as DeepL's own API does, checked with deepl-node and with the
 * raw requests other DeepL clients send: `billed_characters` only when asked for, and formality
 * reported per target as tolk really treats it.
 */
import assert from "node:assert/strict";
import * as deepl from "deepl-node";
import {
  DeepLLanguagesResponseSchema,
  DeepLTranslateResponseSchema,
} from "../../../../schemas/compat/deepl.ts";
import { deeplClient } from "../../../support/deepl_client.ts";
import { expectBody, postJson } from "../../../support/http_assertions.ts";
import { FRENCH } from "../../../support/sample_texts.ts";
import { withOnlyStandIn } from "../../../support/stand_in_service.ts";
import {
  type TestService,
  withTranslationService as withService,
} from "../../../support/translation_service.ts";

/** POST /v2/translate with a JSON body, as DeepL's other SDKs and hand-written clients send it. */
async function translateJson(service: TestService, body: Record<string, unknown>) {
  const response = await postJson(`${service.url}/v1/compat/deepl/v2/translate`, body, {
    authorization: `DeepL-Auth-Key ${service.token}`,
  });
  return await expectBody(response, 200, DeepLTranslateResponseSchema);
}

Deno.test("billed_characters is answered only with show_billed_characters, as DeepL does; usage counts every request", async () => {
  await withService(async (service) => {
    const client = deeplClient(service);
    const before = (await client.getUsage()).character!.count;
    const plain = await translateJson(service, { text: [FRENCH], target_lang: "EN-US" });
    assert.equal(Object.hasOwn(plain.translations[0], "billed_characters"), false);
    const refused = await translateJson(service, {
      text: [FRENCH],
      target_lang: "EN-US",
      show_billed_characters: false,
    });
    assert.equal(Object.hasOwn(refused.translations[0], "billed_characters"), false);
    const asked = await translateJson(service, {
      text: [FRENCH],
      target_lang: "EN-US",
      show_billed_characters: true,
    });
    assert.equal(asked.translations[0].billed_characters, [...FRENCH].length);
    // deepl-node always sends show_billed_characters=1 in its form body.
    const viaClient = await client.translateText(FRENCH, null, "en-US");
    assert.equal(viaClient.billedCharacters, [...FRENCH].length);
    const after = (await client.getUsage()).character!.count;
    assert.equal(after - before, 4 * [...FRENCH].length);
  });
});

Deno.test("GET /v2/languages?type=target says no formality while the built-in model (which reads no tone) translates", async () => {
  await withService(async (service) => {
    const targets = await deeplClient(service).getTargetLanguages();
    assert.ok(targets.length > 0);
    assert.deepEqual(
      targets.filter((language) => language.supportsFormality !== false).map((l) => l.code),
      [],
    );
    const sources = await fetch(`${service.url}/v1/compat/deepl/v2/languages`, {
      headers: { authorization: `DeepL-Auth-Key ${service.token}` },
    });
    const body = await expectBody(sources, 200, DeepLLanguagesResponseSchema);
    assert.ok(body.every((language) => !("supports_formality" in language)));
  });
});

Deno.test("GET /v2/languages?type=target says formality for every target while an LLM engine (which reads the tone) translates", async () => {
  await withOnlyStandIn({}, async (service) => {
    const targets = await deeplClient(service).getTargetLanguages();
    assert.ok(targets.length > 0);
    assert.ok(targets.every((language) => language.supportsFormality === true));
  });
});

Deno.test("formality more or less is refused while the engine would not read it, as DeepL refuses it for such a target; prefer_ values fall back", async () => {
  await withService(async (service) => {
    const client = deeplClient(service);
    for (const formality of ["more", "less"] as const) {
      await assert.rejects(
        client.translateText("Hello", "en", "de", { formality }),
        (error: Error) =>
          error instanceof deepl.DeepLError && /formality/.test(error.message) &&
          /prefer_/.test(error.message),
        formality,
      );
    }
    for (const formality of ["prefer_more", "prefer_less", "default"] as const) {
      const result = await client.translateText("Hello", "en", "de", { formality });
      assert.equal(typeof result.text, "string", formality);
    }
  });
});
