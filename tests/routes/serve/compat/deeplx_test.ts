import assert from "node:assert/strict";
import { DeepLXErrorSchema, DeepLXResponseSchema } from "../../../../schemas/compat/deeplx.ts";
import { HistoryPageSchema } from "../../../../schemas/history.ts";
import { dataRequest } from "../../../support/data_requests.ts";
import { expectBody, postJson } from "../../../support/http_assertions.ts";
import { FRENCH } from "../../../support/sample_texts.ts";
import { withTranslationService as withService } from "../../../support/translation_service.ts";
import {
  BUSY_RETRY_AFTER_SECONDS,
  LONG_JOB,
  refusedWhileBusy,
  startOneSlotService,
} from "../../../support/busy_engine.ts";

Deno.test("POST /v1/compat/deeplx/translate takes the token by ?token=, Bearer or the path", async () => {
  await withService(async (service) => {
    const body = { text: FRENCH, source_lang: "auto", target_lang: "en" };
    const carriers = [
      postJson(`${service.url}/v1/compat/deeplx/translate?token=${service.token}`, body),
      postJson(`${service.url}/v1/compat/deeplx/translate`, body, {
        authorization: `Bearer ${service.token}`,
      }),
      postJson(`${service.url}/v1/compat/t/${service.token}/deeplx/translate`, body),
    ];
    for (const response of await Promise.all(carriers)) {
      const answer = await expectBody(response, 200, DeepLXResponseSchema);
      assert.equal(answer.source_lang, "FR");
      assert.equal(answer.target_lang, "EN");
      assert.notEqual(answer.data, FRENCH);
    }
  });
});

Deno.test("DeepLX requests are kept in history as client deeplx unless compat.sensitive is set, whichever way the token comes", async () => {
  await withService(async (service) => {
    const history = async () =>
      (await expectBody(
        await dataRequest(service, "GET", "/v1/history?client=deeplx"),
        200,
        HistoryPageSchema,
      )).data;
    const body = { text: FRENCH, source_lang: "FR", target_lang: "EN" };
    const calls = () => [
      postJson(`${service.url}/v1/compat/deeplx/translate?token=${service.token}`, body),
      postJson(`${service.url}/v1/compat/deeplx/translate`, body, {
        authorization: `Bearer ${service.token}`,
      }),
      postJson(`${service.url}/v1/compat/t/${service.token}/deeplx/translate`, body),
    ];
    service.store.update((settings) => {
      settings.compat.sensitive = true;
    });
    for (const response of await Promise.all(calls())) {
      await expectBody(response, 200, DeepLXResponseSchema);
    }
    assert.deepEqual(await history(), [], "a sensitive compat request is not stored");
    service.store.update((settings) => {
      settings.compat.sensitive = false;
    });
    for (const response of await Promise.all(calls())) {
      await expectBody(response, 200, DeepLXResponseSchema);
    }
    const rows = await history();
    assert.equal(rows.length, 3);
    assert.ok(rows.every((row) => row.texts[0] === FRENCH && row.source === "fr"));
  });
});

Deno.test("POST /v1/compat/deeplx/translate refuses a wrong or missing token with 401 {code, message}", async () => {
  await withService(async (service) => {
    const body = { text: FRENCH, target_lang: "EN" };
    for (
      const url of [
        `${service.url}/v1/compat/deeplx/translate`,
        `${service.url}/v1/compat/deeplx/translate?token=wrong`,
        `${service.url}/v1/compat/t/wrong/deeplx/translate`,
      ]
    ) {
      const answer = await expectBody(await postJson(url, body), 401, DeepLXErrorSchema);
      assert.equal(answer.code, 401);
    }
  });
});

Deno.test("POST /v1/compat/deeplx/translate answers bad requests with 400 {code, message}", async () => {
  await withService(async (service) => {
    const url = `${service.url}/v1/compat/deeplx/translate?token=${service.token}`;
    for (
      const body of [
        { text: "", target_lang: "EN" },
        { text: "x", target_lang: "PT" },
        { text: "x", target_lang: "EN", tag_handling: "markdown" },
        { target_lang: "EN" },
      ]
    ) {
      const answer = await expectBody(await postJson(url, body), 400, DeepLXErrorSchema);
      assert.equal(answer.code, 400, JSON.stringify(body));
    }
  });
});

Deno.test("POST /v1/compat/deeplx/translate reads a JSON body whatever its Content-Type, as DeepLX does", async () => {
  await withService(async (service) => {
    const url = `${service.url}/v1/compat/deeplx/translate?token=${service.token}`;
    const json = JSON.stringify({ text: FRENCH, source_lang: "auto", target_lang: "EN" });
    // DeepLX binds the body as JSON without reading the type: fetch with a string body sends
    // text/plain, curl -d sends a form type, Python's data= sends none.
    for (const type of ["text/plain;charset=UTF-8", "application/x-www-form-urlencoded", null]) {
      const headers: Record<string, string> = type === null ? {} : { "content-type": type };
      const body = type === null ? new TextEncoder().encode(json) : json;
      const response = await fetch(url, { method: "POST", headers, body });
      const answer = await expectBody(response, 200, DeepLXResponseSchema);
      assert.equal(answer.source_lang, "FR", String(type));
      assert.notEqual(answer.data, FRENCH);
    }
    // A form body is still read as one.
    const form = new URLSearchParams({ text: FRENCH, target_lang: "EN" });
    const answer = await expectBody(
      await fetch(url, { method: "POST", body: form }),
      200,
      DeepLXResponseSchema,
    );
    assert.equal(answer.source_lang, "FR");
  });
});

Deno.test("POST /v1/compat/deeplx/translate answers a full engine queue as DeepLX's 429 {code, message}, with Retry-After", async () => {
  // DeepLX answers 429 when DeepL throttles it (its clients wait and retry) and 503 for a failure.
  const service = await startOneSlotService();
  try {
    const url = `${service.url}/v1/compat/deeplx/translate?token=${service.token}`;
    const call = (text: string) => postJson(url, { text, source_lang: "FR", target_lang: "EN" });
    const refused = await refusedWhileBusy(() => call(LONG_JOB.join("\n")), () => call(FRENCH));
    assert.ok(refused, "one request overlapped another and was refused");
    assert.equal(refused.headers.get("retry-after"), String(BUSY_RETRY_AFTER_SECONDS));
    const body = await expectBody(refused, 429, DeepLXErrorSchema);
    assert.equal(body.code, 429);
  } finally {
    await service.stop();
  }
});

Deno.test("DeepLX requests are kept in history as client deeplx unless the settings make compat sensitive", async () => {
  await withService(async (service) => {
    const url = `${service.url}/v1/compat/deeplx/translate?token=${service.token}`;
    const clients = () => service.history.list({ limit: 10 }).entries.map((row) => row.client);
    await expectBody(
      await postJson(url, { text: FRENCH, target_lang: "EN" }),
      200,
      DeepLXResponseSchema,
    );
    assert.deepEqual(clients(), ["deeplx"]);
    service.store.update((settings) => {
      settings.compat.sensitive = true;
    });
    await expectBody(
      await postJson(url, { text: FRENCH, target_lang: "DE" }),
      200,
      DeepLXResponseSchema,
    );
    assert.deepEqual(clients(), ["deeplx"], "a sensitive compat request is not stored");
  });
});
