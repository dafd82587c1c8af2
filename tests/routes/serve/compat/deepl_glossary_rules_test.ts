/**
 * DeepL's rules around glossaries that deepl-node users rely on: a glossary applies only to its
 * own language pair (DeepL refuses a translation whose pair the glossary lacks, rather than
 * translating without the user's terms), and a malformed v3 request names the field at fault.
 */
import assert from "node:assert/strict";
import * as deepl from "deepl-node";
import { createTraditionalGlossary, deeplClient } from "../../../support/deepl_client.ts";
import { DeepLErrorSchema, DeepLGlossarySchema } from "../../../../schemas/compat/deepl.ts";
import { expectBody } from "../../../support/http_assertions.ts";
import { withTranslationService as withService } from "../../../support/translation_service.ts";

const ENTRIES = new deepl.GlossaryEntries({ entries: { tolk: "tolk" } });

Deno.test("deepl-node translating with a glossary that lacks the request's language pair is DeepL's 400, naming the pairs it has", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    const v2 = await deepL.createGlossary("Terms", "en", "de", ENTRIES);
    const v3 = await deepL.createMultilingualGlossary("Both", [
      { sourceLangCode: "en", targetLangCode: "de", entries: ENTRIES },
      { sourceLangCode: "de", targetLangCode: "en", entries: ENTRIES },
    ]);
    const refusals: { name: string; call: () => Promise<unknown>; said: RegExp }[] = [
      {
        name: "another target",
        call: () => deepL.translateText("tolk", "en", "fr", { glossary: v2 }),
        said: /en→fr.*en→de/,
      },
      {
        name: "another source",
        call: () => deepL.translateText("tolk", "ja", "de", { glossary: v3.glossaryId }),
        said: /ja→de.*de→en, en→de/,
      },
      {
        name: "through glossaryIds",
        call: () => deepL.translateText("tolk", "en", "ja", { glossaryIds: [v3.glossaryId] }),
        said: /en→ja/,
      },
    ];
    for (const refusal of refusals) {
      await assert.rejects(refusal.call(), (error: Error) => {
        assert.ok(error instanceof deepl.DeepLError, refusal.name);
        assert.match(error.message, /^Bad request/, refusal.name);
        assert.match(error.message, refusal.said, refusal.name);
        return true;
      });
    }
    // The shape on the wire, and nothing translated or kept.
    const response = await fetch(`${service.url}/v1/compat/deepl/v2/translate`, {
      method: "POST",
      headers: { authorization: `DeepL-Auth-Key ${service.token}` },
      body: new URLSearchParams({
        text: "tolk",
        source_lang: "EN",
        target_lang: "FR",
        glossary_id: v2.glossaryId,
      }),
    });
    await expectBody(response, 400, DeepLErrorSchema);
    assert.deepEqual(service.history.list({ limit: 10 }).entries, []);
    // Its own pair, in any of DeepL's spellings (EN-GB is the glossary's en), still applies.
    await deepL.translateText("tolk", "de", "en-GB", { glossary: v3 });
    await deepL.translateText("tolk", "en", "de", { glossary: v2 });
  });
});

Deno.test("POST and PATCH /v1/compat/deepl/v3/glossaries name the dictionary field at fault, and refuse dictionaries that are not a list", async () => {
  await withService(async (service) => {
    const send = (method: string, path: string, body: unknown) =>
      fetch(`${service.url}/v1/compat/deepl/v3/glossaries${path}`, {
        method,
        headers: {
          authorization: `DeepL-Auth-Key ${service.token}`,
          "content-type": "application/json",
        },
        body: JSON.stringify(body),
      });
    const created = await expectBody(
      await send("POST", "", {
        name: "Terms",
        dictionaries: [{ source_lang: "en", target_lang: "de", entries: "tolk\ttolk" }],
      }),
      201,
      DeepLGlossarySchema,
    );
    const cases: { name: string; method: string; path: string; body: unknown; said: RegExp }[] = [
      {
        name: "a dictionary without entries",
        method: "POST",
        path: "",
        body: { name: "x", dictionaries: [{ source_lang: "en", target_lang: "de" }] },
        said: /^dictionaries\[0\]\.entries is required$/,
      },
      {
        name: "a second dictionary that is not an object",
        method: "POST",
        path: "",
        body: {
          name: "x",
          dictionaries: [{ source_lang: "en", target_lang: "de", entries: "a\tb" }, null],
        },
        said: /^dictionaries\[1\]: expected object/,
      },
      {
        name: "dictionaries as one object on create",
        method: "POST",
        path: "",
        body: {
          name: "x",
          dictionaries: { source_lang: "en", target_lang: "fr", entries: "a\tb" },
        },
        said: /^dictionaries: expected array/,
      },
      {
        name: "dictionaries as one object on PATCH (it changed nothing and answered 200)",
        method: "PATCH",
        path: `/${created.glossary_id}`,
        body: { dictionaries: { source_lang: "en", target_lang: "fr", entries: "a\tb" } },
        said: /^dictionaries: expected array/,
      },
      {
        name: "PUT's dictionary (its fields are the body's own) without entries",
        method: "PUT",
        path: `/${created.glossary_id}/dictionaries`,
        body: { source_lang: "en", target_lang: "fr" },
        said: /^entries is required$/,
      },
    ];
    for (const testCase of cases) {
      const response = await send(testCase.method, testCase.path, testCase.body);
      const error = await expectBody(response, 400, DeepLErrorSchema);
      assert.match(error.message, testCase.said, testCase.name);
    }
    const after = await deeplClient(service).getMultilingualGlossary(created.glossary_id);
    assert.deepEqual(after.dictionaries.map((d) => d.targetLangCode), ["de"]);
  });
});

Deno.test("deepl-node's glossary names are held to tolk's glossary rule (at most 256 characters), v2, v3 and rename", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    const long = "n".repeat(257);
    const dictionary = { sourceLangCode: "en", targetLangCode: "de", entries: ENTRIES };
    const created = await deepL.createMultilingualGlossary("n".repeat(256), [dictionary]);
    const calls: [string, () => Promise<unknown>][] = [
      ["v2 create", () => deepL.createGlossary(long, "en", "de", ENTRIES)],
      ["v3 create", () => deepL.createMultilingualGlossary(long, [dictionary])],
      ["v3 rename", () => deepL.updateMultilingualGlossaryName(created, long)],
    ];
    for (const [name, call] of calls) {
      await assert.rejects(call(), (error: Error) => {
        assert.ok(error instanceof deepl.DeepLError, name);
        assert.match(error.message, /name must have at most 256 characters/, name);
        return true;
      });
    }
    const names = (await deepL.listMultilingualGlossaries()).map((g) => g.name.length);
    assert.deepEqual(names, [256]);
  });
});

Deno.test("PUT /v1/compat/deepl/v3/glossaries/{id}/dictionaries for a glossary deleted while its body arrived is DeepL's 404, not a 200 for a dictionary stored nowhere", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    const glossary = await deepL.createMultilingualGlossary("Gone", [
      { sourceLangCode: "en", targetLangCode: "de", entries: ENTRIES },
    ]);
    const body = JSON.stringify({ source_lang: "en", target_lang: "fr", entries: "tolk\ttolk" });
    // Raw TCP with a Content-Length (fetch streams chunked, which the body limit reads whole
    // before the route runs): the route finds the glossary, then waits for the rest of the body.
    const { hostname, port } = new URL(service.url);
    const connection = await Deno.connect({ hostname, port: Number(port) });
    const encoder = new TextEncoder();
    await connection.write(encoder.encode(
      `PUT /v1/compat/deepl/v3/glossaries/${glossary.glossaryId}/dictionaries HTTP/1.1\r\n` +
        `Host: ${hostname}:${port}\r\nAuthorization: DeepL-Auth-Key ${service.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
        `Connection: close\r\n\r\n${body.slice(0, 10)}`,
    ));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await deepL.deleteMultilingualGlossary(glossary);
    await connection.write(encoder.encode(body.slice(10)));
    const answer = new TextDecoder().decode(
      await new Response(connection.readable).arrayBuffer(),
    );
    assert.match(answer, /^HTTP\/1\.1 404 /, answer);
    assert.match(answer, /no glossary with this id/);
  });
});

/** A DeepL form translation (EN → `target`) with a glossary: its status, text and report. */
async function translateWith(
  service: { url: string; token: string },
  target: string,
  glossaryId: string,
) {
  const response = await fetch(`${service.url}/v1/compat/deepl/v2/translate`, {
    method: "POST",
    headers: { authorization: `DeepL-Auth-Key ${service.token}` },
    body: new URLSearchParams({
      text: "The database is fast.",
      source_lang: "EN",
      target_lang: target,
      glossary_id: glossaryId,
    }),
  });
  const body = await response.json();
  return {
    status: response.status,
    text: body.translations?.[0]?.text ?? body.message,
    report: response.headers.get("svc-glossary-report"),
  };
}

Deno.test("a DeepL glossary into zh (deepl-node's createGlossary sends zh for zh-Hant) applies to ZH-HANT and ZH-HANS targets, its terms in the target's script", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    const v2 = await createTraditionalGlossary(
      deepL,
      new deepl.GlossaryEntries({ entries: { database: "数据库" } }),
    );
    assert.equal(v2.targetLang, "zh");
    // v3 keeps what it is given: a Traditional dictionary serves Simplified targets too.
    const v3 = await deepL.createMultilingualGlossary("Traditional", [
      {
        sourceLangCode: "en",
        targetLangCode: "zh-Hant",
        entries: new deepl.GlossaryEntries({ entries: { database: "資料庫" } }),
      },
    ]);
    const cases = [
      { glossary: v2.glossaryId, target: "ZH-HANT", term: "數據庫" },
      { glossary: v2.glossaryId, target: "ZH-HANS", term: "数据库" },
      { glossary: v2.glossaryId, target: "ZH", term: "数据库" },
      { glossary: v3.glossaryId, target: "ZH-HANT", term: "資料庫" },
      { glossary: v3.glossaryId, target: "ZH-HANS", term: "资料库" },
    ];
    for (const { glossary, target, term } of cases) {
      const answer = await translateWith(service, target, glossary);
      const name = `${glossary === v2.glossaryId ? "v2" : "v3"} → ${target}`;
      assert.equal(answer.status, 200, `${name}: ${answer.text}`);
      assert.match(answer.report ?? "", /^matched=1;/, name);
      assert.ok(answer.text.includes(term), `${name}: ${answer.text}`);
    }
    // Through deepl-node too.
    const result = await deepL.translateText("The database is fast.", "en", "zh-HANT", {
      glossary: v2,
    });
    assert.ok(result.text.includes("數據庫"), result.text);
  });
});

Deno.test("a DeepL glossary from zh-Hant serves source_lang ZH (DeepL's one Chinese source), its terms matched as written", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    const glossary = await deepL.createMultilingualGlossary("From Traditional", [
      {
        sourceLangCode: "zh-Hant",
        targetLangCode: "en",
        entries: new deepl.GlossaryEntries({ entries: { "資料庫": "Tolkbase" } }),
      },
    ]);
    const result = await deepL.translateText("資料庫很快。", "zh", "en-US", { glossary });
    assert.ok(result.text.includes("Tolkbase"), result.text);
  });
});
