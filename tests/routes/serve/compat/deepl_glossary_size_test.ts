/**
 * DeepL glossaries are data, as tolk's own: their bodies are held to the 8 MiB of
 * /v1/glossaries (10,000 entries of long terms), not to the 1 MiB of a translation request, so
 * a glossary tolk takes on its own route is taken from deepl-node too; over 8 MiB is DeepL's 413
 * naming the limit.
 */
import assert from "node:assert/strict";
import * as deepl from "deepl-node";
import { DeepLErrorSchema } from "../../../../schemas/compat/deepl.ts";
import { MAX_GLOSSARY_ENTRIES } from "../../../../schemas/glossary.ts";
import { deeplClient } from "../../../support/deepl_client.ts";
import { expectBody } from "../../../support/http_assertions.ts";
import { withTranslationService as withService } from "../../../support/translation_service.ts";

/** 10,000 entries of 120-character terms: about 2.4 MB of TSV. */
function longEntries(): Record<string, string> {
  const entries: Record<string, string> = {};
  for (let i = 0; i < MAX_GLOSSARY_ENTRIES; i++) {
    const key = String(i).padStart(5, "0");
    entries[`source term ${key} ${"s".repeat(100)}`] = `target term ${key} ${"t".repeat(100)}`;
  }
  return entries;
}

Deno.test("deepl-node creates a glossary of 10,000 long entries (over 1 MiB), v3 and v2", async () => {
  await withService(async (service) => {
    const deepL = deeplClient(service);
    const entries = new deepl.GlossaryEntries({ entries: longEntries() });
    assert.ok(entries.toTsv().length > 2 * 1024 * 1024);
    const v3 = await deepL.createMultilingualGlossary("Large", [
      { sourceLangCode: "en", targetLangCode: "de", entries },
    ]);
    assert.equal(v3.dictionaries[0].entryCount, MAX_GLOSSARY_ENTRIES);
    const v2 = await deepL.createGlossary("Large v2", "en", "fr", entries);
    assert.equal(v2.entryCount, MAX_GLOSSARY_ENTRIES);
  });
});

Deno.test("a DeepL glossary body over 8 MiB is DeepL's 413 naming the limit", async () => {
  await withService(async (service) => {
    const response = await fetch(`${service.url}/v1/compat/deepl/v3/glossaries`, {
      method: "POST",
      headers: {
        authorization: `DeepL-Auth-Key ${service.token}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ name: "Huge", padding: "x".repeat(9 * 1024 * 1024) }),
    });
    const { message } = await expectBody(response, 413, DeepLErrorSchema);
    assert.match(message, /8 MiB/);
  });
});
