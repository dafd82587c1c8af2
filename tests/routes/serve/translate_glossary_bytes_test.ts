/**
 * A glossary changes the terms, not the bytes of the rest: text written decomposed (`n\u0301`,
 * as macOS file names and some keyboards give it) reaches the engine and comes back as written,
 * while the terms are still found in it (matching is NFC).
 */
import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { createGlossary } from "../../support/glossary_service.ts";
import { postTranslate } from "../../support/translation_service.ts";

/**
 * Texts written decomposed, what the engine is sent, and what a model that only applies the terms
 * answers.
 */
const DECOMPOSED = [
  {
    name: "outside the term",
    text: "Open the database, Zo\u0308e and Ban\u0303o\u0301n.",
    expected: "Open the Datenbank, Zo\u0308e and Ban\u0303o\u0301n.",
    sent: "Open the database, Zo\u0308e and Ban\u0303o\u0301n.",
  },
  {
    name: "inside the term",
    text: "The cafe\u0301 database of Zo\u0308e",
    expected: "The Kaffeehaus Datenbank of Zo\u0308e",
    // A term to translate is sent as the glossary spells it, as the prompt's list names it.
    sent: "The caf\u00e9 database of Zo\u0308e",
  },
  {
    name: "in a kept term",
    text: "Ask Zoe\u0308 about the database",
    expected: "Ask Zoe\u0308 about the Datenbank",
    sent: "Ask Zoe\u0308 about the database",
  },
];

for (const { name, text, expected, sent } of DECOMPOSED) {
  Deno.test(`a glossary keeps decomposed text ${name} byte for byte`, async () => {
    await withStandInService(
      { glossary: "apply", translate: (input) => input },
      async (service, runner) => {
        const { glossary_id } = await createGlossary(
          service,
          "Terms",
          ["en", "de"],
          "database\tDatenbank\ncafé\tKaffeehaus\nzoë\t\n",
        );
        const body = await expectBody(
          await postTranslate(service, {
            source: "en",
            target: "de",
            texts: [text],
            options: { engine: "engine-one", glossary_id },
          }),
          200,
          TranslateResponseSchema,
        );
        assert.ok(body.glossary && body.glossary.matched > 0, JSON.stringify(body.glossary));
        assert.equal(body.results[0].text, expected);
        const messages = JSON.stringify(runner.chats[0].messages);
        assert.ok(messages.includes(JSON.stringify(sent).slice(1, -1)), messages);
      },
    );
  });
}
