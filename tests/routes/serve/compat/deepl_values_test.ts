/**
 * The values DeepL clients send and read, as DeepL's API takes and answers them: option values in
 * any case, DeepL's script-less `ZH` source, and a detected source language that is always one of
 * DeepL's source codes (its OpenAPI `SourceLanguage`), never tolk's `und`.
 */
import assert from "node:assert/strict";
import * as deepl from "deepl-node";
import { deeplClient } from "../../../support/deepl_client.ts";
import { DeepLXResponseSchema } from "../../../../schemas/compat/deeplx.ts";
import { DeepLTranslateResponseSchema } from "../../../../schemas/compat/deepl.ts";
import { expectBody, postJson } from "../../../support/http_assertions.ts";
import { upperCase } from "../../../support/format_engines.ts";
import { withOnlyStandIn } from "../../../support/stand_in_service.ts";
import { type TestService, withTranslationService } from "../../../support/translation_service.ts";

/** POST /v2/translate as a form, the way hand-written DeepL clients send it. */
async function translateForm(service: TestService, fields: Record<string, string>) {
  const response = await fetch(`${service.url}/v1/compat/deepl/v2/translate`, {
    method: "POST",
    headers: { authorization: `DeepL-Auth-Key ${service.token}` },
    body: new URLSearchParams(fields),
  });
  return await expectBody(response, 200, DeepLTranslateResponseSchema);
}

Deno.test("DeepL option values are read in any case: tag_handling XML and HTML, split_sentences NONEWLINES, tag_handling_version V2", async () => {
  await withOnlyStandIn({ translate: upperCase }, async (service) => {
    const client = deeplClient(service);
    for (const tagHandling of ["XML", "HTML", "Xml"]) {
      const result = await client.translateText("Press <b>Continue</b> now", "en", "de", {
        tagHandling: tagHandling as deepl.TagHandlingMode,
      });
      assert.equal(result.text, "PRESS <b>CONTINUE</b> NOW", tagHandling);
    }
    const body = await translateForm(service, {
      text: "<p>one</p>",
      target_lang: "de",
      source_lang: "en",
      tag_handling: "XML",
      tag_handling_version: "V2",
      split_sentences: "NONEWLINES",
    });
    assert.equal(body.translations[0].text, "<p>ONE</p>");
    assert.equal(body.translations[0].tag_handling_version, "v2");
  });
});

const TRADITIONAL = "這是繁體中文的句子，我們說話。";
const SIMPLIFIED = "这是繁体中文的句子，我们说话。";

Deno.test("source_lang ZH is Chinese in either script, as DeepL reads it: Traditional text to ZH-HANS or ZH is converted, not passed through", async () => {
  await withTranslationService(async (service) => {
    for (const [source, target] of [["ZH", "ZH-HANS"], ["zh", "ZH"], ["zh", "zh-hans"]]) {
      const body = await translateForm(service, {
        text: TRADITIONAL,
        source_lang: source,
        target_lang: target,
      });
      assert.equal(body.translations[0].text, SIMPLIFIED, `${source} → ${target}`);
      assert.equal(body.translations[0].detected_source_language, "ZH");
    }
    const simplified = await translateForm(service, {
      text: SIMPLIFIED,
      source_lang: "ZH",
      target_lang: "ZH-HANT",
    });
    assert.equal(simplified.translations[0].text, TRADITIONAL);
    const deeplx = await expectBody(
      await postJson(`${service.url}/v1/compat/deeplx/translate?token=${service.token}`, {
        text: TRADITIONAL,
        source_lang: "ZH",
        target_lang: "ZH",
      }),
      200,
      DeepLXResponseSchema,
    );
    assert.equal(deeplx.data, SIMPLIFIED);
  });
});

Deno.test("detected_source_language of a batch without letters is a DeepL source code (the target's), never UND", async () => {
  await withOnlyStandIn({ translate: upperCase }, async (service) => {
    const results = await deeplClient(service).translateText(["1234", "!!! 42"], null, "de");
    assert.deepEqual(results.map((result) => [result.text, result.detectedSourceLang]), [
      ["1234", "de"],
      ["!!! 42", "de"],
    ]);
    const english = await deeplClient(service).translateText("2026", null, "en-GB");
    assert.equal(english.detectedSourceLang, "en");
    const deeplx = await expectBody(
      await postJson(`${service.url}/v1/compat/deeplx/translate?token=${service.token}`, {
        text: "1234",
        target_lang: "ZH-HANT",
      }),
      200,
      DeepLXResponseSchema,
    );
    assert.equal(deeplx.source_lang, "ZH");
  });
});

Deno.test("a DeepL Free key form, the token with DeepL's :fx suffix, is the token (deepl-node and a DeepL-Auth-Key header)", async () => {
  await withOnlyStandIn({ translate: upperCase }, async (service) => {
    const free = deeplClient(service, `${service.token}:fx`);
    assert.equal((await free.translateText("hello", "en", "de")).text, "HELLO");
    await assert.rejects(
      deeplClient(service, `${service.token}x:fx`).getUsage(),
      deepl.AuthorizationError,
    );
  });
});

Deno.test("a DeepL key sent as auth_key (form body or query), which DeepL no longer reads, is refused naming the header to use", async () => {
  await withOnlyStandIn({ translate: upperCase }, async (service) => {
    const url = `${service.url}/v1/compat/deepl/v2/translate`;
    const form = { text: "hello", target_lang: "DE" };
    for (
      const response of [
        await fetch(url, { method: "POST", body: new URLSearchParams({ ...form, auth_key: "k" }) }),
        await fetch(`${url}?auth_key=k`, { method: "POST", body: new URLSearchParams(form) }),
      ]
    ) {
      assert.equal(response.status, 403);
      const { message } = await response.json();
      assert.match(message, /auth_key/);
      assert.match(message, /Authorization: DeepL-Auth-Key/);
    }
  });
});

Deno.test("GET /v2/translate, which DeepL no longer takes, says to POST; DeepL's v1 paths point to v2; GET /v2/languages reads type in any case", async () => {
  await withOnlyStandIn({ translate: upperCase }, async (service) => {
    const headers = { authorization: `DeepL-Auth-Key ${service.token}` };
    const base = `${service.url}/v1/compat/deepl/v2`;
    const get = await fetch(`${base}/translate?text=hello&target_lang=DE`, { headers });
    assert.equal(get.status, 400);
    assert.match((await get.json()).message, /POST/);
    const v1 = await fetch(`${service.url}/v1/compat/deepl/v1/translate`, {
      method: "POST",
      headers,
      body: new URLSearchParams({ text: "hello", target_lang: "DE" }),
    });
    assert.equal(v1.status, 404);
    assert.match((await v1.json()).message, /\/v2\/translate/);
    const targets = await fetch(`${base}/languages?type=TARGET`, { headers });
    assert.equal(targets.status, 200);
    assert.ok(
      (await targets.json()).some((entry: { language: string }) => entry.language === "EN-US"),
    );
  });
});

Deno.test("formality formal and informal, which DeepL takes beside more and less, reach LLM engines as a tone", async () => {
  await withOnlyStandIn({ translate: upperCase }, async (service, runner) => {
    for (const [formality, tone] of [["formal", "formal"], ["informal", "informal"]]) {
      const result = await deeplClient(service).translateText("hello", "en", "de", {
        formality: formality as deepl.Formality,
      });
      assert.equal(result.text, "HELLO");
      assert.match(JSON.stringify(runner.chats.at(-1)), new RegExp(`Tone: ${tone}\\.`));
    }
  });
});

Deno.test("a JSON null reads as an absent field, as DeepLX's server reads it: source_lang null detects", async () => {
  await withOnlyStandIn({ translate: upperCase }, async (service) => {
    const deepLBody = await expectBody(
      await postJson(`${service.url}/v1/compat/deepl/v2/translate`, {
        text: ["hello world"],
        target_lang: "DE",
        source_lang: null,
        formality: null,
        glossary_id: null,
        context: null,
        tag_handling: null,
      }, { authorization: `DeepL-Auth-Key ${service.token}` }),
      200,
      DeepLTranslateResponseSchema,
    );
    assert.equal(deepLBody.translations[0].text, "HELLO WORLD");
    assert.equal(deepLBody.translations[0].detected_source_language, "EN");
    const deeplx = await expectBody(
      await postJson(`${service.url}/v1/compat/deeplx/translate?token=${service.token}`, {
        text: "hello world",
        source_lang: null,
        target_lang: "DE",
        tag_handling: null,
      }),
      200,
      DeepLXResponseSchema,
    );
    assert.equal(deeplx.data, "HELLO WORLD");
  });
});

Deno.test("split_sentences alone decides what an engine gets as one unit: 0 and nonewlines the whole text (preserve_formatting or not), 1 each line", async () => {
  const bracketed = (text: string) => `[${text}]`;
  await withOnlyStandIn({ translate: bracketed }, async (service) => {
    const client = deeplClient(service);
    const cases: [deepl.SentenceSplittingMode | undefined, string][] = [
      ["off", "[one\ntwo]"],
      ["nonewlines", "[one\ntwo]"],
      ["on", "[one]\n[two]"],
      [undefined, "[one]\n[two]"],
    ];
    for (const [mode, expected] of cases) {
      const result = await client.translateText("one\ntwo", "en", "de", {
        preserveFormatting: true,
        ...(mode ? { splitSentences: mode } : {}),
      });
      assert.equal(result.text, expected, mode ?? "default");
    }
  });
});

Deno.test("deepl-node's style rules and translation memories, which tolk has none of, are refused by name, and their lists say so", async () => {
  await withTranslationService(async (service) => {
    const client = deeplClient(service);
    await assert.rejects(
      client.translateText("Hello", "en", "de", { styleRule: "sr-1" }),
      (error: Error) => error instanceof deepl.DeepLError && /style_id "sr-1"/.test(error.message),
    );
    await assert.rejects(
      client.translateText("Hello", "en", "de", { translationMemory: "tm-1" }),
      (error: Error) =>
        error instanceof deepl.DeepLError && /translation_memory_id "tm-1"/.test(error.message),
    );
    await assert.rejects(
      client.getAllStyleRules(),
      (error: Error) => /tolk has no DeepL style rules/.test(error.message),
    );
    await assert.rejects(
      client.listTranslationMemories(),
      (error: Error) => /tolk has no DeepL translation memories/.test(error.message),
    );
  });
});

Deno.test("deepl-node's modelType is answered with modelTypeUsed, as DeepL answers it (prefer_quality_optimized is quality_optimized); none without it or for another value", async () => {
  await withOnlyStandIn({ translate: upperCase }, async (service) => {
    const client = deeplClient(service);
    const cases: { asked?: string; used?: string }[] = [
      { asked: "quality_optimized", used: "quality_optimized" },
      { asked: "prefer_quality_optimized", used: "quality_optimized" },
      { asked: "latency_optimized", used: "latency_optimized" },
      { asked: "fastest" },
      {},
    ];
    for (const { asked, used } of cases) {
      const modelType = asked as deepl.ModelType | undefined;
      const result = await client.translateText("one", "en", "de", { modelType });
      assert.equal(result.text, "ONE");
      assert.equal(result.modelTypeUsed, used, String(asked));
    }
  });
});

Deno.test("a batch of 50 texts (DeepL's most) with empty ones among them is answered in order, an empty text empty and billed 0", async () => {
  await withOnlyStandIn({ translate: upperCase }, async (service) => {
    const texts = Array.from({ length: 50 }, (_, i) => i % 10 === 3 ? "" : `text ${i}`);
    const response = await postJson(
      `${service.url}/v1/compat/deepl/v2/translate`,
      { text: texts, source_lang: "EN", target_lang: "DE", show_billed_characters: true },
      { authorization: `DeepL-Auth-Key ${service.token}` },
    );
    const body = await expectBody(response, 200, DeepLTranslateResponseSchema);
    assert.deepEqual(body.translations.map((t) => t.text), texts.map((text) => text.toUpperCase()));
    assert.deepEqual(
      body.translations.map((t) => t.billed_characters),
      texts.map((text) => text.length),
    );
    // deepl-node refuses empty texts itself; its batch of the others.
    const results = await deeplClient(service).translateText(texts.filter(Boolean), "en", "de");
    assert.deepEqual(results.map((r) => r.text), texts.filter(Boolean).map((t) => t.toUpperCase()));
  });
});
