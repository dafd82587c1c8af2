/**
 * The README's table of existing tools ("Use tolk from your existing tools"), each URL taken from
 * it as written (only `127.0.0.1:8765` and `<token>` filled in) and used the way its row says:
 * deepl-node with the URL as server and the token as key, the `translate` package with the
 * `…/libre/translate` the row names and the token as key, a URL-only LibreTranslate client, and
 * a DeepLX client with `?token=`, with `Authorization: Bearer` and with the URL alone; and the
 * same URLs pasted with a final slash (the README's 308 for doubled slashes).
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

Deno.test("the README's tools-table URLs pasted with a final slash still work: `…/libre//translate` is a 308 to the merged path", async () => {
  const readme = (await Deno.readTextFile(join(ROOT, "README.md"))).replace(/\s+/g, " ");
  const [, doubled, status] = readme.match(
    /A compat path with doubled slashes \(`…(\/libre\/\/translate)`, from a base URL pasted with its final slash\) is answered (\d{3}) with the slashes merged/,
  ) ?? [];
  assert.ok(doubled, "the README says what a doubled slash gets");
  const rows = await readmeCompatRows();
  await withTranslationService(async (service) => {
    const [deeplUrl, libreUrl, , libreOnly] = rows.flatMap(({ urls }) =>
      urls.map((url) => url.replace(README_ADDRESS, service.url).replace("<token>", service.token))
    );
    // A LibreTranslate client joins its base URL and `/translate`: with the final slash pasted.
    for (const base of [libreUrl, libreOnly]) {
      const url = `${base}/${doubled.slice("/libre/".length)}`;
      assert.ok(url.endsWith("/libre//translate"), url);
      const body = () =>
        new URLSearchParams({ q: FRENCH, source: "fr", target: "en", api_key: service.token });
      const manual = await fetch(url, { method: "POST", body: body(), redirect: "manual" });
      await manual.body?.cancel();
      assert.equal(manual.status, Number(status), url);
      assert.equal(
        new URL(manual.headers.get("location")!, url).href,
        url.replace("//translate", "/translate"),
      );
      // The client sends the same request there, as fetch and Python's requests do on a 308.
      await expectBody(
        await fetch(url, { method: "POST", body: body() }),
        200,
        LibreTranslateResponseSchema,
      );
    }
    const client = new deepl.DeepLClient(service.token, {
      serverUrl: `${deeplUrl}/`,
      maxRetries: 0,
      minTimeout: 60_000,
    });
    assert.equal((await client.translateText(FRENCH, null, "en-US")).detectedSourceLang, "fr");
  });
});
