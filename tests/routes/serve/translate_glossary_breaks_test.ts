/**
 * A glossary term wrapped over a line break (a subtitle cue's, a `<br>`) on the built-in engine:
 * the break stays inside the target term, or before it at the end of a text, never after it where
 * it would leave an empty line (an empty line ends an SRT cue).
 */
import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { withBuiltInGlossary } from "../../support/glossary_service.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { postTranslate } from "../../support/translation_service.ts";

const SRT = "1\n00:00:01,000 --> 00:00:02,000\nOpen the translation\nmemory\n\n" +
  "2\n00:00:03,000 --> 00:00:04,000\nThe translation\nmemory is here\n";

Deno.test("a term wrapped over a cue's line break keeps every cue's lines, none empty", async () => {
  await withBuiltInGlossary(
    "Cues",
    ["en", "de"],
    "translation memory\tTM\n",
    async (service, glossary) => {
      const response = await postTranslate(service, {
        source: "en",
        target: "de",
        mode: "subtitle",
        texts: [SRT],
        options: { engine: "local-llm", glossary_id: glossary.glossary_id },
      });
      const body = await expectBody(response, 200, TranslateResponseSchema);
      const text = body.results[0].text;
      const cues = text.trimEnd().split("\n\n");
      assert.equal(cues.length, 2, text);
      for (const cue of cues) {
        const lines = cue.split("\n").slice(2);
        assert.equal(lines.length, 2, text);
        assert.ok(lines.every((line) => line.trim() !== ""), text);
        assert.ok(lines.some((line) => /\bTM\b/.test(line)), text);
      }
    },
  );
});

Deno.test("a term wrapped over a <br> keeps the <br> between the target's words", async () => {
  await withBuiltInGlossary(
    "Breaks",
    ["en", "de"],
    "translation memory\tSpeicher für Übersetzungen\n",
    async (service, glossary) => {
      const response = await postTranslate(service, {
        source: "en",
        target: "de",
        format: "html",
        texts: ["<p>Open the translation<br>memory</p>"],
        options: { engine: "local-llm", glossary_id: glossary.glossary_id },
      });
      const body = await expectBody(response, 200, TranslateResponseSchema);
      const text = body.results[0].text;
      assert.match(text, /Speicher für<br>Übersetzungen<\/p>$/, text);
    },
  );
});
