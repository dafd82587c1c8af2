/**
 * The compatibility routes refuse a UTF-16 file a client read as UTF-8 or Latin-1 (every other
 * character U+0000) as POST /v1/translate does — the same rule, in each client's error shape,
 * naming the field as the client sent it and the encoding to decode it with — and translate
 * nothing and record nothing.
 */
import assert from "node:assert/strict";
import * as deepl from "deepl-node";
import { Translate } from "translate";
import { DeepLXErrorSchema } from "../../../../schemas/compat/deeplx.ts";
import { LibreErrorSchema } from "../../../../schemas/compat/libretranslate.ts";
import { deeplClient } from "../../../support/deepl_client.ts";
import { expectBody, postJson } from "../../../support/http_assertions.ts";
import {
  type TestService,
  withTranslationService as withService,
} from "../../../support/translation_service.ts";

const TEXT = "Wo warst du gestern? Ich war zu Hause, müde und traurig.";

/** `TEXT` as a UTF-16 file (with its byte-order mark) that a client decoded as UTF-8. */
function misread(order: "le" | "be"): string {
  const units = [..."\uFEFF" + TEXT].flatMap((char) => {
    const code = char.charCodeAt(0);
    return order === "le" ? [code & 0xff, code >> 8] : [code >> 8, code & 0xff];
  });
  return new TextDecoder().decode(new Uint8Array(units));
}

/** The refusal's words: the field as the client named it, the encoding, what to do. */
function assertNamesEncoding(message: string, field: string, encoding: string) {
  assert.ok(message.includes(`${field}:`), message);
  assert.ok(message.includes(encoding), message);
  assert.match(message, /decode/);
}

function assertNothingRecorded(service: TestService) {
  assert.equal(service.history.list({ limit: 10 }).entries.length, 0);
}

Deno.test("deepl-node's translateText of a misread UTF-16 text is DeepL's 400 naming text[i] and the encoding", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    for (const [order, encoding] of [["le", "UTF-16LE"], ["be", "UTF-16BE"]] as const) {
      await assert.rejects(
        deepL.translateText(["Guten Morgen", misread(order)], "de", "en-US"),
        (error: Error) => {
          assert.ok(error instanceof deepl.DeepLError, String(error));
          assertNamesEncoding(error.message, "text[1]", encoding);
          return true;
        },
      );
    }
    // Through DeepL's JSON body, without a source, toward Chinese (its script is read first).
    const response = await postJson(
      `${service.url}/v1/compat/deepl/v2/translate`,
      { text: [misread("le")], target_lang: "ZH" },
      { authorization: `DeepL-Auth-Key ${service.token}` },
    );
    assert.equal(response.status, 400);
    assertNamesEncoding((await response.json()).message, "text[0]", "UTF-16LE");
    assertNothingRecorded(service);
  });
});

Deno.test("the translate package's libre engine surfaces a misread UTF-16 text as LibreTranslate's error", async () => {
  await withService(async (service) => {
    const options: Parameters<typeof Translate>[0] & { url: string } = {
      engine: "libre",
      url: `${service.url}/v1/compat/libre/translate`,
      key: service.token,
    };
    const translate = Translate(options);
    await assert.rejects(
      translate(misread("be"), { from: "de", to: "en" }),
      (error: Error) => {
        assertNamesEncoding(error.message, "q", "UTF-16BE");
        return true;
      },
    );
    // A batch names the item; q a string is the one text, as the client sent it.
    const url = `${service.url}/v1/compat/libre/translate`;
    const cases = [
      { q: ["Guten Morgen", misread("le")], field: "q[1]" },
      { q: misread("le"), field: "q" },
    ];
    for (const { q, field } of cases) {
      const body = { q, source: "auto", target: "en", api_key: service.token };
      const answer = await expectBody(await postJson(url, body), 400, LibreErrorSchema);
      assertNamesEncoding(answer.error, field, "UTF-16LE");
      assert.ok(!answer.error.includes(`${field}[0]`), answer.error);
    }
    assertNothingRecorded(service);
  });
});

Deno.test("POST /v1/compat/deeplx/translate refuses a misread UTF-16 text with 400 {code, message} naming text", async () => {
  await withService(async (service) => {
    const url = `${service.url}/v1/compat/deeplx/translate?token=${service.token}`;
    for (const source_lang of ["auto", "DE", "ZH"]) {
      const body = { text: misread("le"), source_lang, target_lang: "EN" };
      const answer = await expectBody(await postJson(url, body), 400, DeepLXErrorSchema);
      assert.equal(answer.code, 400);
      assertNamesEncoding(answer.message, "text", "UTF-16LE");
      assert.ok(!answer.message.includes("text[0]"), answer.message);
    }
    assertNothingRecorded(service);
  });
});
