/**
 * A glossary at its limits (10,000 entries, terms of 256 characters) through /v1/translate: its
 * dictionary is compiled on the first translation and finds a term among 10,000 long ones. How
 * long the compilation takes (it once held the service for seconds) is measured by
 * `deno task bench:glossary` (BENCHMARKS.md, "Glossary matching"), not timed here.
 */
import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { createGlossary } from "../../support/glossary_service.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { postTranslate } from "../../support/translation_service.ts";

/** A 256-character term that shares no first word with any other. */
function longTerm(index: number): string {
  return `w${index} ` + "x".repeat(253 - String(index).length);
}

Deno.test("the first translation with 10,000 terms of 256 characters finds and applies its term", async () => {
  await withStandInService({ glossary: "apply" }, async (service) => {
    const entries = Array.from({ length: 10_000 }, (_, i) => `${longTerm(i)}\tT${i}\n`).join("");
    const glossary = await createGlossary(service, "Large", ["en", "de"], entries);
    const response = await postTranslate(service, {
      source: "en",
      target: "de",
      texts: [`Read ${longTerm(4321)} now.`],
      options: { engine: "engine-one", glossary_id: glossary.glossary_id },
    });
    assert.equal(response.headers.get("svc-glossary-report"), "matched=1; applied=1");
    const body = await expectBody(response, 200, TranslateResponseSchema);
    assert.equal(body.results[0].text, "[translated] Read T4321 now.");
  });
});
