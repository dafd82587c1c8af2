import assert from "node:assert/strict";
import * as deepl from "deepl-node";
import { z } from "zod";
import {
  DeepLErrorSchema,
  DeepLLanguagesResponseSchema,
  DeepLTranslateResponseSchema,
  DeepLUsageResponseSchema,
} from "../../../../schemas/compat/deepl.ts";
import { deeplClient } from "../../../support/deepl_client.ts";
import { expectBody, postJson } from "../../../support/http_assertions.ts";
import { startOllamaStandIn } from "../../../support/ollama_stand_in.ts";
import { ENGLISH, FRENCH, GERMAN } from "../../../support/sample_texts.ts";
import {
  type TestService,
  withTranslationService as withService,
} from "../../../support/translation_service.ts";

function postForm(service: TestService, path: string, form: URLSearchParams, key = service.token) {
  return fetch(`${service.url}/v1/compat/deepl${path}`, {
    method: "POST",
    headers: { authorization: `DeepL-Auth-Key ${key}` },
    body: form,
  });
}

Deno.test("deepl-node translates a batch through /v1/compat/deepl with detected sources and billed characters", async () => {
  await withService(async (service) => {
    const results = await deeplClient(service).translateText([FRENCH, GERMAN], null, "en-US");
    assert.equal(results.length, 2);
    assert.deepEqual(results.map((result) => result.detectedSourceLang), ["fr", "de"]);
    assert.deepEqual(results.map((result) => result.billedCharacters), [
      [...FRENCH].length,
      [...GERMAN].length,
    ]);
    assert.notEqual(results[0].text, FRENCH);
    const single = await deeplClient(service).translateText(ENGLISH, "en", "en-GB");
    assert.equal(single.text, ENGLISH, "a text already in the target passes through");
    assert.equal(single.detectedSourceLang, "en");
  });
});

Deno.test("deepl-node gets AuthorizationError for a wrong key and while the API is disabled", async () => {
  await withService(async (service) => {
    await assert.rejects(
      deeplClient(service, "wrong-key").translateText("Hallo", null, "en-US"),
      deepl.AuthorizationError,
    );
    service.store.update((settings) => {
      settings.api.enabled = false;
    });
    await assert.rejects(deeplClient(service).getUsage(), deepl.AuthorizationError);
  });
});

Deno.test("deepl-node lists source and target languages and reads usage", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    const sources = await deepL.getSourceLanguages();
    assert.ok(sources.some((language) => language.code === "zh"));
    const targets = await deepL.getTargetLanguages();
    assert.ok(targets.some((language) => language.code === "en-US"));
    assert.ok(targets.some((language) => language.code === "zh-HANT"));
    const before = await deepL.getUsage();
    await deepL.translateText(FRENCH, "fr", "de");
    const after = await deepL.getUsage();
    assert.equal(after.character!.count - before.character!.count, [...FRENCH].length);
    assert.equal(after.anyLimitReached(), false);
  });
});

Deno.test("deepl-node formality reaches LLM engines as a tone", async () => {
  const runner = startOllamaStandIn();
  try {
    await withService(async (service) => {
      const result = await deeplClient(service).translateText("Guten Morgen", "de", "en-US", {
        formality: "less",
      });
      assert.equal(result.text, "[translated] Guten Morgen");
      assert.match(JSON.stringify(runner.chats.at(-1)), /Tone: informal\./);
    }, {
      settings: { engines: { order: ["engine-one"], "engine-one": { base_url: runner.baseUrl } } },
    });
  } finally {
    await runner.stop();
  }
});

Deno.test("deepl-node's context and custom instructions reach LLM engines (the context as data)", async () => {
  const runner = startOllamaStandIn();
  try {
    await withService(async (service) => {
      const context = "Menu of a text editor: the item closes the open file.";
      const customInstructions = ["Use the informal du", "Keep menu items short"];
      const result = await deeplClient(service).translateText("Close", "en", "de", {
        context,
        customInstructions,
      });
      assert.equal(result.text, "[translated] Close");
      const messages = runner.chats.at(-1)!.messages as { content: string }[];
      assert.deepEqual(JSON.parse(messages.at(-1)!.content).context, context);
      for (const instruction of customInstructions) {
        assert.ok(messages[0].content.includes(JSON.stringify(instruction)), instruction);
      }
    }, {
      settings: { engines: { order: ["engine-one"], "engine-one": { base_url: runner.baseUrl } } },
    });
  } finally {
    await runner.stop();
  }
});

Deno.test("POST /v1/compat/deepl/v2/translate takes a JSON body and a form body with repeated text", async () => {
  await withService(async (service) => {
    const json = await expectBody(
      await postJson(`${service.url}/v1/compat/deepl/v2/translate`, {
        text: [FRENCH, ENGLISH],
        target_lang: "EN-US",
      }, { authorization: `DeepL-Auth-Key ${service.token}` }),
      200,
      DeepLTranslateResponseSchema,
    );
    assert.deepEqual(json.translations.map((t) => t.detected_source_language), ["FR", "EN"]);
    assert.equal(json.translations[1].text, ENGLISH);
    const form = new URLSearchParams([
      ["target_lang", "en-us"],
      ["text", FRENCH],
      ["text", ENGLISH],
      ["show_billed_characters", "1"],
    ]);
    const body = await expectBody(
      await postForm(service, "/v2/translate", form),
      200,
      DeepLTranslateResponseSchema,
    );
    assert.equal(body.translations.length, 2);
  });
});

Deno.test("DeepL flags in a form body read 0/1 and true/false; another value is named with what is expected", async () => {
  await withService(async (service) => {
    const form = (value: string) =>
      new URLSearchParams([["target_lang", "FR"], ["text", ENGLISH], [
        "preserve_formatting",
        value,
      ]]);
    for (const value of ["1", "0", "true", "false"]) {
      await expectBody(
        await postForm(service, "/v2/translate", form(value)),
        200,
        DeepLTranslateResponseSchema,
      );
    }
    const refused = await expectBody(
      await postForm(service, "/v2/translate", form("yes")),
      400,
      DeepLErrorSchema,
    );
    assert.match(refused.message, /preserve_formatting: expected 0 or 1/);
  });
});

Deno.test("POST /v1/compat/deepl/v2/translate answers limits in DeepL's shape, not a crash", async () => {
  await withService(async (service) => {
    const cases = [
      { name: "129 texts", texts: Array(129).fill("a"), status: 413 },
      {
        name: "50001 code points",
        texts: [...Array(6).fill("a".repeat(8000)), "b".repeat(2001)],
        status: 413,
      },
      { name: "an unknown target", texts: ["a"], target: "PT-BR", status: 400 },
    ];
    for (const testCase of cases) {
      const form = new URLSearchParams([["target_lang", testCase.target ?? "DE"]]);
      for (const text of testCase.texts) form.append("text", text);
      const body = await expectBody(
        await postForm(service, "/v2/translate", form),
        testCase.status,
        DeepLErrorSchema,
      );
      assert.ok(body.message.length > 0, testCase.name);
    }
    const huge = await fetch(`${service.url}/v1/compat/deepl/v2/translate`, {
      method: "POST",
      headers: {
        authorization: `DeepL-Auth-Key ${service.token}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ text: ["x".repeat(2 * 1024 * 1024)], target_lang: "DE" }),
    });
    await expectBody(huge, 413, DeepLErrorSchema);
    const malformed = await fetch(`${service.url}/v1/compat/deepl/v2/translate`, {
      method: "POST",
      headers: {
        authorization: `DeepL-Auth-Key ${service.token}`,
        "content-type": "application/json",
      },
      body: "{",
    });
    await expectBody(malformed, 400, DeepLErrorSchema);
  });
});

Deno.test("GET /v1/compat/deepl answers unknown paths and a wrong key in DeepL's shape", async () => {
  await withService(async (service) => {
    const headers = { authorization: `DeepL-Auth-Key ${service.token}` };
    await expectBody(
      await fetch(`${service.url}/v1/compat/deepl/v2/nothing`, { headers }),
      404,
      DeepLErrorSchema,
    );
    await expectBody(
      await fetch(`${service.url}/v1/compat/deepl/v2/languages`),
      403,
      DeepLErrorSchema,
    );
    await expectBody(
      await fetch(`${service.url}/v1/compat/deepl/v2/languages?type=target`, { headers }),
      200,
      DeepLLanguagesResponseSchema,
    );
    await expectBody(
      await fetch(`${service.url}/v1/compat/deepl/v2/usage`, { method: "POST", headers }),
      200,
      DeepLUsageResponseSchema,
    );
  });
});

Deno.test("deepl-node's document upload and DeepL Write say tolk does not serve them, and what to do", async () => {
  await withService(async (service) => {
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(`${dir}/page.html`, "<p>Hello world</p>");
      await assert.rejects(
        deeplClient(service).translateDocument(`${dir}/page.html`, `${dir}/out.html`, "en", "de"),
        (error: Error) => {
          assert.ok(error instanceof deepl.DocumentTranslationError, String(error));
          assert.match(error.message, /does not translate document files.*\/v2\/translate/);
          return true;
        },
      );
      const headers = { authorization: `DeepL-Auth-Key ${service.token}` };
      for (const path of ["/v2/document", "/v2/document/ID/result", "/v2/write/rephrase"]) {
        const body = await expectBody(
          await fetch(`${service.url}/v1/compat/deepl${path}`, { method: "POST", headers }),
          404,
          DeepLErrorSchema,
        );
        assert.doesNotMatch(body.message, /no such endpoint/, path);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("DeepL requests are kept in history as client deepl unless the settings make compat sensitive", async () => {
  await withService(async (service) => {
    const history = async () => {
      const response = await fetch(`${service.url}/v1/history?client=deepl`, {
        headers: { "x-svc-token": service.token },
      });
      return (await response.json()).data as { client: string }[];
    };
    await deeplClient(service).translateText(FRENCH, null, "de");
    assert.deepEqual((await history()).map((row) => row.client), ["deepl"]);
    service.store.update((settings) => {
      settings.compat.sensitive = true;
    });
    await deeplClient(service).translateText(GERMAN, null, "fr");
    assert.equal((await history()).length, 1, "a sensitive compat request is not stored");
  });
});

Deno.test("with compat.memory in the settings, a repeated DeepL request is served from translation memory", async () => {
  await withService(async (service) => {
    service.store.update((settings) => {
      settings.compat.memory = true;
    });
    const first = await deeplClient(service).translateText(FRENCH, "fr", "de");
    const second = await deeplClient(service).translateText(FRENCH, "fr", "de");
    assert.equal(second.text, first.text);
    const response = await fetch(`${service.url}/v1/history?client=deepl`, {
      headers: { "x-svc-token": service.token },
    });
    const rows = (await response.json()).data as { engine: string }[];
    assert.deepEqual(rows.map((row) => row.engine), ["memory", "local-llm"], "newest first");
  });
});

Deno.test("compat routes refuse a body that is not UTF-8 (JSON, form bytes or %XX escapes) instead of translating U+FFFD", async () => {
  await withService(async (service) => {
    const encode = (text: string) => new TextEncoder().encode(text);
    // "café" in ISO-8859-1: the é is the lone byte 0xE9, raw or escaped.
    const latin1 = (before: string, after: string) =>
      new Uint8Array([...encode(before), 0xe9, ...encode(after)]);
    const multipart = (value: Uint8Array<ArrayBuffer>) =>
      new Uint8Array([
        ...encode('--b\r\nContent-Disposition: form-data; name="target_lang"\r\n\r\nDE\r\n'),
        ...encode('--b\r\nContent-Disposition: form-data; name="text"\r\n\r\n'),
        ...value,
        ...encode("\r\n--b--\r\n"),
      ]);
    const refused: [string, Uint8Array<ArrayBuffer>][] = [
      ["application/json; charset=iso-8859-1", latin1('{"target_lang":"DE","text":["caf', '"]}')],
      ["application/x-www-form-urlencoded", encode("target_lang=DE&text=caf%E9")],
      ["application/x-www-form-urlencoded", latin1("target_lang=DE&text=caf", "")],
      ["multipart/form-data; boundary=b", multipart(latin1("caf", ""))],
    ];
    const post = (type: string, body: Uint8Array<ArrayBuffer>) =>
      fetch(`${service.url}/v1/compat/deepl/v2/translate`, {
        method: "POST",
        headers: { authorization: `DeepL-Auth-Key ${service.token}`, "content-type": type },
        body,
      });
    for (const [type, body] of refused) {
      const error = await expectBody(await post(type, body), 400, DeepLErrorSchema);
      assert.equal(error.message, "the body is not valid UTF-8", type);
    }
    const libre = await fetch(`${service.url}/v1/compat/libre/translate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: latin1(`{"api_key":"${service.token}","source":"fr","target":"de","q":"caf`, '"}'),
    });
    await expectBody(libre, 400, z.object({ error: z.literal("the body is not valid UTF-8") }));
    assert.deepEqual(service.history.list({ limit: 10 }).entries, []);
    // UTF-8, and a % that starts no escape, are read as before.
    const accepted: [string, Uint8Array<ArrayBuffer>][] = [
      ["application/x-www-form-urlencoded", encode("target_lang=DE&text=caf%C3%A9+100%")],
      ["multipart/form-data; boundary=b", multipart(encode("café"))],
    ];
    for (const [type, body] of accepted) {
      await expectBody(await post(type, body), 200, DeepLTranslateResponseSchema);
    }
    const kept = service.history.list({ limit: 10 }).entries.map((entry) => entry.texts);
    assert.deepEqual(kept, [["café"], ["café 100%"]]);
  });
});
