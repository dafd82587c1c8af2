/**
 * Glossary terms and addresses (translation/glossary/word_bounds.ts): a term is never found
 * inside a URL, an e-mail address or a bare domain, in the source or in a translation's check.
 */
import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { createGlossary, withBuiltInGlossary } from "../../support/glossary_service.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { postTranslate } from "../../support/translation_service.ts";

Deno.test("the built-in engine leaves a term inside a URL or an e-mail address alone", async () => {
  await withBuiltInGlossary(
    "Addresses",
    ["en", "de"],
    "example\tBeispiel\n",
    async (service, glossary) => {
      for (
        const text of ["See https://example.com/docs for details", "mail me at example@corp.com"]
      ) {
        const response = await postTranslate(service, {
          source: "en",
          target: "de",
          texts: [text],
          options: { engine: "local-llm", glossary_id: glossary.glossary_id },
        });
        assert.equal(response.headers.get("svc-glossary-report"), "matched=0; applied=0");
        const body = await expectBody(response, 200, TranslateResponseSchema);
        assert.ok(!body.results[0].text.includes("Beispiel"), body.results[0].text);
      }
    },
  );
});

Deno.test("a chat engine is not given a term found only inside addresses, so they come back as sent", async () => {
  await withStandInService({ glossary: "apply" }, async (service, runner) => {
    const glossary = await createGlossary(
      service,
      "Addresses",
      ["en", "de"],
      "example\tBeispiel\n",
    );
    const text = "See https://example.com/docs for details, mail me at example@corp.com";
    const response = await postTranslate(service, {
      source: "en",
      target: "de",
      texts: [text],
      options: { engine: "engine-one", glossary_id: glossary.glossary_id },
    });
    assert.equal(response.headers.get("svc-glossary-report"), "matched=0; applied=0");
    const body = await expectBody(response, 200, TranslateResponseSchema);
    assert.equal(body.results[0].text, `[translated] ${text}`);
    assert.equal(runner.chats.length, 1);
  });
});

Deno.test("a kept term found only inside an address of the translation is not applied", async () => {
  const answer = { content: JSON.stringify({ "1": "Es läuft auf https://tolk.dev/start" }) };
  await withStandInService({ script: [answer, answer] }, async (service, runner) => {
    const glossary = await createGlossary(service, "Names", ["en", "de"], "tolk\t\n");
    const response = await postTranslate(service, {
      source: "en",
      target: "de",
      texts: ["Tolk runs at https://tolk.dev/start"],
      options: { engine: "engine-one", glossary_id: glossary.glossary_id },
    });
    assert.equal(response.headers.get("svc-glossary-report"), "matched=1; applied=0");
    await expectBody(response, 200, TranslateResponseSchema);
    assert.equal(runner.chats.length, 2, "asked once more for the missing term");
  });
});

Deno.test("a term that is a whole address is still found and applied", async () => {
  await withStandInService({ glossary: "apply" }, async (service) => {
    const glossary = await createGlossary(service, "Sites", ["en", "de"], "tolk.dev\t\n");
    const response = await postTranslate(service, {
      source: "en",
      target: "de",
      texts: ["Open tolk.dev now"],
      options: { engine: "engine-one", glossary_id: glossary.glossary_id },
    });
    assert.equal(response.headers.get("svc-glossary-report"), "matched=1; applied=1");
    await expectBody(response, 200, TranslateResponseSchema);
  });
});
