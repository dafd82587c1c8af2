/**
 * A glossary term's words may be apart by a wrapped line, never by a paragraph break (README,
 * "Glossaries"): "translation\n\nmemory" in a plain text is two paragraphs, and a term matched
 * across them had the engine merge them into one ("Open the TM now."). Seen through the real
 * service: the terms a chat engine is given, `Svc-Glossary-Report` and the paragraphs kept.
 */
import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { createGlossary } from "../../support/glossary_service.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { promptTerms } from "../../support/ollama_stand_in.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { postTranslate } from "../../support/translation_service.ts";

const CASES: { name: string; text: string; terms: string[] }[] = [
  {
    name: "a wrapped line (one LF) is white space",
    text: "Open the translation\nmemory now.",
    terms: ["translation memory"],
  },
  {
    name: "a wrapped line (CRLF) and spaces is white space",
    text: "Open the translation \r\n  memory now.",
    terms: ["translation memory"],
  },
  {
    name: "a blank line is a paragraph break",
    text: "Open the translation\n\nmemory now.",
    terms: [],
  },
  {
    name: "a blank line of spaces (CRLF) is a paragraph break",
    text: "Open the translation\r\n \r\nmemory now.",
    terms: [],
  },
  { name: "U+2029 is a paragraph break", text: "Open the translation\u2029memory now.", terms: [] },
  { name: "a form feed is a page break", text: "Open the translation\fmemory now.", terms: [] },
];

for (const c of CASES) {
  Deno.test(`a glossary term across white space: ${c.name}`, async () => {
    await withStandInService({ glossary: "apply" }, async (service, runner) => {
      const { glossary_id } = await createGlossary(
        service,
        "paragraphs",
        ["en", "de"],
        "translation memory\tÜbersetzungsspeicher\n",
      );
      const response = await postTranslate(service, {
        source: "en",
        target: "de",
        texts: [c.text],
        options: { engine: "engine-one", glossary_id },
      });
      const report = response.headers.get("svc-glossary-report");
      const body = await expectBody(response, 200, TranslateResponseSchema);
      const messages = runner.chats[0].messages as { role: string; content: string }[];
      assert.deepEqual(promptTerms(messages).map(([term]) => term), c.terms);
      assert.equal(report, `matched=${c.terms.length}; applied=${c.terms.length}`);
      if (c.terms.length === 0) assert.match(body.results[0].text, /translation\s+memory/);
    });
  });
}
