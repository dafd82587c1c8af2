/**
 * The case of a glossary term in the built-in engine's translation: the target as the glossary
 * writes it, capitalised where the text capitalised a term the glossary writes in lower case (a
 * sentence's first word).
 */
import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { withBuiltInGlossary } from "../../support/glossary_service.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { postTranslate } from "../../support/translation_service.ts";

Deno.test("the built-in engine capitalises a target term where the text opens a sentence with the term", async () => {
  await withBuiltInGlossary(
    "Sentence start",
    ["en", "fr"],
    "database\tbase de données\nAPI\tinterface\n",
    async (service, glossary) => {
      const response = await postTranslate(service, {
        source: "en",
        target: "fr",
        texts: ["Database is open. Open the database.", "The API is here."],
        options: { engine: "local-llm", glossary_id: glossary.glossary_id },
      });
      const body = await expectBody(response, 200, TranslateResponseSchema);
      const [first, second] = body.results.map((result) => result.text);
      assert.ok(first.includes("Base de données"), first);
      assert.ok(first.includes("base de données"), `mid-sentence stays lower case: ${first}`);
      // The glossary wrote the source in capitals: its target is taken as written.
      assert.ok(second.includes("interface") && !second.includes("Interface"), second);
    },
  );
});
