import assert from "node:assert/strict";
import { Translate } from "translate";
import {
  LibreDetectResponseSchema,
  LibreErrorSchema,
  LibreFrontendSettingsSchema,
  LibreLanguagesResponseSchema,
  LibreTranslateResponseSchema,
} from "../../../../schemas/compat/libretranslate.ts";
import { ErrorResponseSchema } from "../../../../schemas/translation.ts";
import { expectBody, postJson } from "../../../support/http_assertions.ts";
import { ENGLISH, FRENCH, GERMAN } from "../../../support/sample_texts.ts";
import {
  type TestService,
  withTranslationService as withService,
} from "../../../support/translation_service.ts";

/**
 * The package's LibreTranslate engine at `url`. Its typings omit the `url` option its README
 * documents (and the code reads), hence the widened options object.
 */
function libreTranslator(url: string, key?: string) {
  const options: Parameters<typeof Translate>[0] & { url: string } = { engine: "libre", url, key };
  return Translate(options);
}

function postLibre(service: TestService, path: string, body: Record<string, unknown>) {
  return postJson(`${service.url}/v1/compat/libre${path}`, { api_key: service.token, ...body });
}

Deno.test("the translate package's libre engine translates through /v1/compat/libre with api_key", async () => {
  await withService(async (service) => {
    const translate = libreTranslator(`${service.url}/v1/compat/libre/translate`, service.token);
    const text = await translate(FRENCH, { from: "fr", to: "en" });
    assert.equal(typeof text, "string");
    assert.notEqual(text, FRENCH);
  });
});

Deno.test("the translate package's libre engine works with the token in the path only", async () => {
  await withService(async (service) => {
    const translate = libreTranslator(
      `${service.url}/v1/compat/t/${service.token}/libre/translate`,
    );
    assert.notEqual(await translate(GERMAN, { from: "de", to: "zt" }), GERMAN);
  });
});

Deno.test("the translate package's libre engine surfaces a wrong key as LibreTranslate's error", async () => {
  await withService(async (service) => {
    const translate = libreTranslator(`${service.url}/v1/compat/libre/translate`, "wrong-key");
    await assert.rejects(translate("Hallo Welt", { from: "de", to: "en" }), /Invalid API key/);
  });
});

Deno.test("POST /v1/compat/libre/translate with source auto reports detectedLanguage in percent", async () => {
  await withService(async (service) => {
    const single = await expectBody(
      await postLibre(service, "/translate", { q: FRENCH, source: "auto", target: "en" }),
      200,
      LibreTranslateResponseSchema,
    );
    assert.equal(typeof single.translatedText, "string");
    const detected = single.detectedLanguage as { language: string; confidence: number };
    assert.equal(detected.language, "fr");
    assert.ok(detected.confidence > 1 && detected.confidence <= 100, String(detected.confidence));

    const batch = await expectBody(
      await postLibre(service, "/translate", {
        q: [FRENCH, ENGLISH],
        source: "auto",
        target: "en",
      }),
      200,
      LibreTranslateResponseSchema,
    );
    assert.ok(Array.isArray(batch.translatedText) && batch.translatedText[1] === ENGLISH);
    assert.deepEqual(
      (batch.detectedLanguage as { language: string }[]).map((entry) => entry.language),
      ["fr", "en"],
    );
    assert.equal(batch.alternatives, undefined, "no alternatives unless asked");
  });
});

Deno.test("POST /v1/compat/libre/translate with format html detects the text a reader sees, not the markup", async () => {
  await withService(async (service) => {
    // English class names and an English address around a German sentence.
    const html = '<div class="navigation-container main-wrapper"><a href="https://example.com/' +
      'the/english/words/path/here/and/there" title="x">Guten Morgen, wie geht es dir heute?</a></div>';
    const body = await expectBody(
      await postLibre(service, "/translate", {
        q: html,
        source: "auto",
        target: "en",
        format: "html",
      }),
      200,
      LibreTranslateResponseSchema,
    );
    assert.equal((body.detectedLanguage as { language: string }).language, "de");
  });
});

Deno.test("POST /v1/compat/libre/translate reports the language the translation read each text in", async () => {
  await withService(async (service) => {
    // Plain text goes line by line (`preserve_formatting`), and a line that is only an address
    // is no text to translate: the item is read as French from "Bonjour" alone and translated.
    // detectedLanguage must say French too, not what the English words of the address suggest.
    const text = "Bonjour\n\nhttps://example.com/some/english/path";
    const body = await expectBody(
      await postLibre(service, "/translate", { q: [text, ENGLISH], source: "auto", target: "en" }),
      200,
      LibreTranslateResponseSchema,
    );
    const translated = body.translatedText as string[];
    assert.notEqual(translated[0], text, "translated from French");
    assert.equal(translated[1], ENGLISH, "already English: unchanged");
    const detected = body.detectedLanguage as { language: string; confidence: number }[];
    assert.deepEqual(detected.map((entry) => entry.language), ["fr", "en"]);
    assert.ok(detected.every((entry) => entry.confidence > 0 && entry.confidence <= 100));
  });
});

Deno.test("POST /v1/compat/libre/translate with a given source has no detectedLanguage; alternatives when asked", async () => {
  await withService(async (service) => {
    const body = await expectBody(
      await postLibre(service, "/translate", {
        q: GERMAN,
        source: "de",
        target: "en",
        format: "text",
        alternatives: 2,
      }),
      200,
      LibreTranslateResponseSchema,
    );
    assert.equal(body.detectedLanguage, undefined);
    assert.ok(Array.isArray(body.alternatives) && body.alternatives.length <= 2);
  });
});

Deno.test("POST /v1/compat/libre/translate reads a form body, as LibreTranslate does", async () => {
  await withService(async (service) => {
    const response = await fetch(`${service.url}/v1/compat/libre/translate`, {
      method: "POST",
      body: new URLSearchParams({ q: GERMAN, source: "de", target: "fr", api_key: service.token }),
    });
    const body = await expectBody(response, 200, LibreTranslateResponseSchema);
    assert.equal(typeof body.translatedText, "string");
  });
});

Deno.test("POST /v1/compat/libre/translate answers {error} with LibreTranslate's statuses", async () => {
  await withService(async (service) => {
    const url = `${service.url}/v1/compat/libre/translate`;
    const cases = [
      { name: "no key", body: { q: "x", source: "en", target: "de" }, status: 400 },
      {
        name: "a wrong key",
        body: { q: "x", source: "en", target: "de", api_key: "no" },
        status: 403,
      },
      { name: "no q", body: { source: "en", target: "de", api_key: service.token }, status: 400 },
      {
        name: "an unknown target",
        body: { q: "x", source: "en", target: "pb", api_key: service.token },
        status: 400,
      },
      {
        name: "129 texts",
        body: { q: Array(129).fill("x"), source: "en", target: "de", api_key: service.token },
        status: 400,
      },
    ];
    for (const testCase of cases) {
      const body = await expectBody(
        await postJson(url, testCase.body),
        testCase.status,
        LibreErrorSchema,
      );
      assert.ok(body.error.length > 0, testCase.name);
    }
  });
});

Deno.test("POST /v1/compat/libre/detect answers candidates with confidence 0..100", async () => {
  await withService(async (service) => {
    const body = await expectBody(
      await postLibre(service, "/detect", { q: GERMAN }),
      200,
      LibreDetectResponseSchema,
    );
    assert.equal(body[0].language, "de");
    await expectBody(await postLibre(service, "/detect", { q: "" }), 400, LibreErrorSchema);
    await expectBody(
      await postJson(`${service.url}/v1/compat/libre/detect`, { q: GERMAN, api_key: "no" }),
      403,
      LibreErrorSchema,
    );
  });
});

/** `/detect` holds `q` to the limits of POST /v1/detect, which answers the same texts 413. */
const DETECT_LIMITS = [
  { name: "an 8,000-character q", q: "a".repeat(8_000), status: 200 },
  { name: "an 8,001-character q", q: "a".repeat(8_001), status: 400 },
  { name: "an 840,000-character q", q: "Guten Morgen. ".repeat(60_000), status: 400 },
  { name: "6 texts of 8,000 (48,000 in all)", q: Array(6).fill("a".repeat(8_000)), status: 200 },
  { name: "7 texts of 8,000 (56,000 in all)", q: Array(7).fill("a".repeat(8_000)), status: 400 },
  { name: "128 texts", q: Array(128).fill(GERMAN), status: 200 },
  { name: "129 texts", q: Array(129).fill(GERMAN), status: 400 },
] as const;

Deno.test("POST /v1/compat/libre/detect holds q to the limits of /v1/detect", async () => {
  await withService(async (service) => {
    for (const { name, q, status } of DETECT_LIMITS) {
      const response = await postLibre(service, "/detect", { q });
      if (status === 200) {
        await expectBody(response, 200, LibreDetectResponseSchema);
        continue;
      }
      const { error } = await expectBody(response, status, LibreErrorSchema);
      assert.match(
        error,
        /over (the )?(8000|50000)( one item may hold| characters)|more than 128 items/,
        name,
      );
      const native = await postJson(`${service.url}/v1/detect`, {
        texts: Array.isArray(q) ? q : [q],
      }, { "x-svc-token": service.token });
      await expectBody(native, 413, ErrorResponseSchema);
    }
  });
});

Deno.test("POST /v1/compat/libre/detect pools an array q into one list, as LibreTranslate does", async () => {
  await withService(async (service) => {
    const body = await expectBody(
      await postLibre(service, "/detect", { q: [GERMAN, FRENCH, GERMAN] }),
      200,
      LibreDetectResponseSchema,
    );
    assert.deepEqual(body.map((entry) => entry.language), ["de", "fr"]);
    const [single] = await expectBody(
      await postLibre(service, "/detect", { q: GERMAN }),
      200,
      LibreDetectResponseSchema,
    );
    assert.deepEqual(body[0], single, "the same German text twice: its own confidence");
  });
});

Deno.test("GET /v1/compat/libre/languages and /frontend/settings answer without a key", async () => {
  await withService(async (service) => {
    const languages = await expectBody(
      await fetch(`${service.url}/v1/compat/libre/languages`),
      200,
      LibreLanguagesResponseSchema,
    );
    assert.equal(languages.length, 16);
    const settings = await expectBody(
      await fetch(`${service.url}/v1/compat/t/any/libre/frontend/settings`),
      200,
      LibreFrontendSettingsSchema,
    );
    assert.equal(settings.keyRequired, true);
    await expectBody(
      await fetch(`${service.url}/v1/compat/libre/nothing`),
      404,
      LibreErrorSchema,
    );
  });
});
