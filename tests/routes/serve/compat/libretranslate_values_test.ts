/**
 * LibreTranslate reads a non-JSON request's fields from `request.values` (the query string and the
 * form) and turns a form's line breaks into LF. These tests send what real LibreTranslate clients
 * send: deep-translator's empty POST with every field in the query string, and the LibreTranslate
 * web front end's `FormData`, whose serialisation makes every line break CRLF; and they check that
 * the compat settings hold whichever way a request arrives.
 */
import assert from "node:assert/strict";
import {
  LibreDetectResponseSchema,
  LibreErrorSchema,
  LibreTranslateResponseSchema,
} from "../../../../schemas/compat/libretranslate.ts";
import { HistoryPageSchema } from "../../../../schemas/history.ts";
import { dataRequest } from "../../../support/data_requests.ts";
import { expectBody } from "../../../support/http_assertions.ts";
import { GERMAN } from "../../../support/sample_texts.ts";
import { withTranslationService as withService } from "../../../support/translation_service.ts";

Deno.test("POST /v1/compat/libre/translate reads fields from the query string of an empty POST (deep-translator)", async () => {
  await withService(async (service) => {
    // deep-translator's LibreTranslator: requests.post(url + "translate", params=params).
    const query = new URLSearchParams({
      q: GERMAN,
      source: "de",
      target: "de",
      format: "text",
      api_key: service.token,
    });
    const response = await fetch(`${service.url}/v1/compat/libre/translate?${query}`, {
      method: "POST",
    });
    const body = await expectBody(response, 200, LibreTranslateResponseSchema);
    assert.equal(body.translatedText, GERMAN);

    const detect = await fetch(
      `${service.url}/v1/compat/t/${service.token}/libre/detect?${new URLSearchParams({
        q: GERMAN,
      })}`,
      { method: "POST" },
    );
    assert.equal((await expectBody(detect, 200, LibreDetectResponseSchema))[0].language, "de");

    // The key in the query string is held to the token like one in the body.
    const wrong = new URLSearchParams({ q: GERMAN, source: "de", target: "en", api_key: "no" });
    await expectBody(
      await fetch(`${service.url}/v1/compat/libre/translate?${wrong}`, { method: "POST" }),
      403,
      LibreErrorSchema,
    );
    // The query string is request contents: the access log shows the route's prefix alone.
    const logged = service.logs.join("\n");
    assert.ok(!logged.includes("Guten") && !logged.includes(service.token), logged);
  });
});

Deno.test("POST /v1/compat/libre/detect without q says what /translate says, in LibreTranslate's words", async () => {
  await withService(async (service) => {
    for (const path of ["/detect", "/translate"]) {
      const response = await fetch(`${service.url}/v1/compat/libre${path}`, {
        method: "POST",
        body: new URLSearchParams({ source: "de", target: "en", api_key: service.token }),
      });
      const { error } = await expectBody(response, 400, LibreErrorSchema);
      assert.equal(error, "Invalid request: missing q parameter", path);
    }
  });
});

Deno.test("POST /v1/compat/libre/translate with JSON reads only the JSON, as LibreTranslate does", async () => {
  await withService(async (service) => {
    const query = new URLSearchParams({ q: GERMAN, source: "de", target: "de" });
    const response = await fetch(`${service.url}/v1/compat/libre/translate?${query}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ api_key: service.token }),
    });
    const { error } = await expectBody(response, 400, LibreErrorSchema);
    assert.match(error, /missing q parameter/);
  });
});

Deno.test("POST /v1/compat/libre/translate answers a FormData text's line breaks as LF and counts them once", async () => {
  await withService(async (service) => {
    // The LibreTranslate front end cuts its input at charLimit (8000) and sends it as FormData,
    // which sends each "\n" as "\r\n".
    const lines = Array(100).fill("a".repeat(79)).join("\n");
    assert.equal(lines.length, 7_999);
    const form = new FormData();
    form.append("q", lines);
    form.append("source", "de");
    form.append("target", "de");
    form.append("format", "text");
    form.append("api_key", service.token);
    const response = await fetch(`${service.url}/v1/compat/libre/translate`, {
      method: "POST",
      body: form,
    });
    const body = await expectBody(response, 200, LibreTranslateResponseSchema);
    assert.equal(body.translatedText, lines);
    const history = await expectBody(
      await dataRequest(service, "GET", "/v1/history?limit=1"),
      200,
      HistoryPageSchema,
    );
    assert.deepEqual(history.data[0].texts, [lines], "the text as the user typed it");
  });
});

Deno.test("POST /v1/compat/libre//translate (a base URL pasted with its slash) is redirected, 308, as LibreTranslate's Flask merges slashes", async () => {
  await withService(async (service) => {
    const form = () =>
      new URLSearchParams({ q: GERMAN, source: "de", target: "de", api_key: service.token });
    const manual = await fetch(`${service.url}/v1/compat/libre//translate?format=text`, {
      method: "POST",
      body: form(),
      redirect: "manual",
    });
    await manual.body?.cancel();
    assert.equal(manual.status, 308);
    assert.equal(manual.headers.get("location"), "/v1/compat/libre/translate?format=text");
    // fetch follows a 308 with the same method and body, as Python's requests does.
    const followed = await fetch(`${service.url}/v1/compat/libre//translate`, {
      method: "POST",
      body: form(),
    });
    const body = await expectBody(followed, 200, LibreTranslateResponseSchema);
    assert.equal(body.translatedText, GERMAN);
    // A path that is still unknown once merged ends 404 in LibreTranslate's shape.
    await expectBody(
      await fetch(`${service.url}/v1/compat/libre//nothing`, { method: "POST" }),
      404,
      LibreErrorSchema,
    );
  });
});

Deno.test("POST /v1/compat/libre/translate reads alternatives as LibreTranslate's int(): below 0 is 0, in a form as in JSON", async () => {
  await withService(async (service) => {
    const url = `${service.url}/v1/compat/libre/translate`;
    const fields = { q: GERMAN, source: "de", target: "en", api_key: service.token };
    for (const alternatives of ["-1", " 2 "]) {
      const response = await fetch(url, {
        method: "POST",
        body: new URLSearchParams({ ...fields, alternatives }),
      });
      const body = await expectBody(response, 200, LibreTranslateResponseSchema);
      assert.equal(body.alternatives !== undefined, alternatives === " 2 ", alternatives);
    }
    for (const alternatives of ["two", "2.5", ""]) {
      const response = await fetch(url, {
        method: "POST",
        body: new URLSearchParams({ ...fields, alternatives }),
      });
      const { error } = await expectBody(response, 400, LibreErrorSchema);
      assert.equal(error, "alternatives parameter is not a number", alternatives);
    }
  });
});

Deno.test("with compat.sensitive in the settings, no way of calling the LibreTranslate routes leaves a history row", async () => {
  await withService(async (service) => {
    const history = async () =>
      (await expectBody(
        await dataRequest(service, "GET", "/v1/history?client=libretranslate"),
        200,
        HistoryPageSchema,
      )).data;
    const fields = { q: GERMAN, source: "de", target: "en" };
    const calls = () => [
      fetch(`${service.url}/v1/compat/libre/translate`, {
        method: "POST",
        body: new URLSearchParams({ ...fields, api_key: service.token }),
      }),
      fetch(`${service.url}/v1/compat/t/${service.token}/libre/translate`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(fields),
      }),
      fetch(
        `${service.url}/v1/compat/libre/translate?${new URLSearchParams({
          ...fields,
          api_key: service.token,
        })}`,
        { method: "POST" },
      ),
    ];
    service.store.update((settings) => {
      settings.compat.sensitive = true;
    });
    for (const response of await Promise.all(calls())) {
      await expectBody(response, 200, LibreTranslateResponseSchema);
    }
    assert.deepEqual(await history(), []);
    service.store.update((settings) => {
      settings.compat.sensitive = false;
    });
    for (const response of await Promise.all(calls())) {
      await expectBody(response, 200, LibreTranslateResponseSchema);
    }
    assert.equal((await history()).length, 3);
  });
});
