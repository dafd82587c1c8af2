/**
 * The README's table of existing tools ("Use tolk from your existing tools"), each URL taken from
 * it as written (only `127.0.0.1:8765` and `<token>` filled in) and used the way its row says:
 * deepl-node with the URL as server and the token as key, the `translate` package with the
 * `…/libre/translate` the row names and the token as key, a URL-only LibreTranslate client, and
 * a DeepLX client with `?token=`, with `Authorization: Bearer` and with the URL alone.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import * as deepl from "deepl-node";
import { Translate } from "translate";
import { LibreTranslateResponseSchema } from "../../schemas/compat/libretranslate.ts";
import { DeepLXResponseSchema } from "../../schemas/compat/deeplx.ts";
import { expectBody, postJson } from "../support/http_assertions.ts";
import { FRENCH } from "../support/sample_texts.ts";
import { withTranslationService } from "../support/translation_service.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const README_ADDRESS = "http://127.0.0.1:8765";

/** The table's rows: the client cell, and every URL in backticks on the row. */
async function readmeCompatRows(): Promise<Array<{ client: string; urls: string[] }>> {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const rows = readme.split("\n").filter((line) =>
    line.startsWith("| ") && line.includes("/compat/")
  );
  return rows.map((row) => ({
    client: row.split("|")[1].trim(),
    urls: [...row.matchAll(/`(http:\/\/[^`]+|…\/[^`]+)`/g)].map(([, url]) => url),
  }));
}

Deno.test("each URL of the README's tools table answers the client its row names", async () => {
  const rows = await readmeCompatRows();
  assert.deepEqual(rows.map(({ client }) => client.split(/[:(]/)[0].trim()), [
    "DeepL API clients",
    "LibreTranslate clients",
    "LibreTranslate clients that take a URL only",
    "DeepLX clients",
    "DeepLX clients that take a URL only",
  ]);
  await withTranslationService(async (service) => {
    const [deeplUrl, libreUrl, libreTail, libreOnly, deeplxUrl, deeplxOnly] = rows.flatMap(
      ({ urls }) =>
        urls.map((url) =>
          url.replace(README_ADDRESS, service.url).replace("<token>", service.token)
        ),
    );

    const client = new deepl.DeepLClient(service.token, {
      serverUrl: deeplUrl,
      maxRetries: 0,
      minTimeout: 60_000,
    });
    const result = await client.translateText(FRENCH, null, "en-US");
    assert.equal(result.detectedSourceLang, "fr");

    // "the package wants …/libre/translate": the row's URL with that ending.
    assert.ok(libreTail.startsWith("…/libre/"), libreTail);
    const packageUrl = libreUrl.replace(/\/libre$/, libreTail.slice(1));
    const options: Parameters<typeof Translate>[0] & { url: string } = {
      engine: "libre",
      url: packageUrl,
      key: service.token,
    };
    assert.equal(typeof await Translate(options)(FRENCH, { from: "fr", to: "en" }), "string");
    const libre = await postJson(`${libreOnly}/translate`, {
      q: FRENCH,
      source: "fr",
      target: "en",
    });
    await expectBody(libre, 200, LibreTranslateResponseSchema);

    const body = { text: FRENCH, source_lang: "FR", target_lang: "EN" };
    for (
      const answer of [
        await postJson(`${deeplxUrl}?token=${service.token}`, body),
        await postJson(deeplxUrl, body, { authorization: `Bearer ${service.token}` }),
        await postJson(deeplxOnly, body),
      ]
    ) {
      assert.equal((await expectBody(answer, 200, DeepLXResponseSchema)).code, 200);
    }
  });
});
