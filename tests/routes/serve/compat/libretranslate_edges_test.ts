/**
 * The edges of the LibreTranslate routes that its clients meet: the endpoints tolk does not
 * serve (files, suggestions) answered as a LibreTranslate server with them disabled answers, a
 * full engine queue as LibreTranslate's "Slowdown" 429, a form's repeated field read as
 * LibreTranslate's `request.values.get` reads it, and detections held to the languages it lists.
 */
import assert from "node:assert/strict";
import {
  LibreDetectResponseSchema,
  LibreErrorSchema,
  LibreLanguagesResponseSchema,
  LibreTranslateResponseSchema,
} from "../../../../schemas/compat/libretranslate.ts";
import { expectBody, postJson } from "../../../support/http_assertions.ts";
import { FRENCH, GERMAN } from "../../../support/sample_texts.ts";
import { withTranslationService as withService } from "../../../support/translation_service.ts";
import {
  BUSY_RETRY_AFTER_SECONDS,
  LONG_JOB,
  refusedWhileBusy,
  startOneSlotService,
} from "../../../support/busy_engine.ts";

Deno.test("POST /v1/compat/libre/translate_file answers LibreTranslate's files-disabled 403, as /frontend/settings says", async () => {
  await withService(async (service) => {
    // LibreTranslate's web front end posts the file as multipart with source, target and api_key.
    const form = new FormData();
    form.append("file", new File([GERMAN], "notes.txt", { type: "text/plain" }));
    form.append("source", "de");
    form.append("target", "en");
    form.append("api_key", service.token);
    for (const base of ["/v1/compat/libre", `/v1/compat/t/${service.token}/libre`]) {
      const response = await fetch(`${service.url}${base}/translate_file`, {
        method: "POST",
        body: form,
      });
      const body = await expectBody(response, 403, LibreErrorSchema);
      assert.equal(body.error, "Files translation are disabled on this server.");
    }
  });
});

Deno.test("POST /v1/compat/libre/suggest answers LibreTranslate's suggestions-disabled 403", async () => {
  await withService(async (service) => {
    const response = await postJson(`${service.url}/v1/compat/libre/suggest`, {
      q: GERMAN,
      s: "Good morning",
      source: "de",
      target: "en",
      api_key: service.token,
    });
    const body = await expectBody(response, 403, LibreErrorSchema);
    assert.equal(body.error, "Suggestions are disabled on this server.");
  });
});

Deno.test("POST /v1/compat/libre/translate answers a full engine queue as LibreTranslate's 429 Slowdown, with Retry-After", async () => {
  const service = await startOneSlotService();
  try {
    const url = `${service.url}/v1/compat/libre/translate`;
    const call = (q: string | string[]) =>
      postJson(url, { q, source: "fr", target: "en", api_key: service.token });
    const refused = await refusedWhileBusy(() => call(LONG_JOB), () => call(FRENCH));
    assert.ok(refused, "one request overlapped another and was refused");
    assert.equal(refused.headers.get("retry-after"), String(BUSY_RETRY_AFTER_SECONDS));
    const body = await expectBody(refused, 429, LibreErrorSchema);
    assert.match(body.error, /^Slowdown: /);
    const document = await (await fetch(`${service.url}/v1/openapi.json`)).json();
    const documented = document.paths["/v1/compat/libre/translate"].post.responses["429"];
    assert.ok(documented?.headers?.["Retry-After"], "the 429 and its Retry-After are documented");
  } finally {
    await service.stop();
  }
});

Deno.test("POST /v1/compat/libre/translate reads a repeated form q as LibreTranslate does: its first value, one text", async () => {
  await withService(async (service) => {
    const form = new URLSearchParams([
      ["q", GERMAN],
      ["q", FRENCH],
      ["source", "de"],
      ["target", "de"],
      ["api_key", service.token],
    ]);
    const body = await expectBody(
      await fetch(`${service.url}/v1/compat/libre/translate`, { method: "POST", body: form }),
      200,
      LibreTranslateResponseSchema,
    );
    assert.equal(body.translatedText, GERMAN, "a string, the first q (already German)");
  });
});

Deno.test("LibreTranslate routes answer only languages /languages lists: no language found is LibreTranslate's en at confidence 0", async () => {
  await withService(async (service) => {
    const listed = new Set(
      (await expectBody(
        await fetch(`${service.url}/v1/compat/libre/languages`),
        200,
        LibreLanguagesResponseSchema,
      )).map((language) => language.code),
    );
    const nothing = { language: "en", confidence: 0 };
    // Digits are no language; Italian is one tolk detects but does not translate (not listed).
    const italian = "Buongiorno, come stai oggi? Tutto bene, grazie mille per la domanda.";
    assert.ok(!listed.has("it"));
    for (const q of ["12345", italian]) {
      const detected = await expectBody(
        await postJson(`${service.url}/v1/compat/libre/detect`, { q, api_key: service.token }),
        200,
        LibreDetectResponseSchema,
      );
      assert.deepEqual(detected, [nothing], q);
    }
    const pooled = await expectBody(
      await postJson(`${service.url}/v1/compat/libre/detect`, {
        q: ["12345", GERMAN],
        api_key: service.token,
      }),
      200,
      LibreDetectResponseSchema,
    );
    assert.deepEqual(pooled.map((entry) => entry.language), ["de"], "the digits add nothing");
    const translated = await expectBody(
      await postJson(`${service.url}/v1/compat/libre/translate`, {
        q: ["12345", GERMAN],
        source: "auto",
        target: "de",
        api_key: service.token,
      }),
      200,
      LibreTranslateResponseSchema,
    );
    assert.deepEqual(translated.translatedText, ["12345", GERMAN]);
    const detections = translated.detectedLanguage as { language: string }[];
    assert.deepEqual(detections[0], nothing);
    assert.ok(detections.every((entry) => listed.has(entry.language)));
  });
});
