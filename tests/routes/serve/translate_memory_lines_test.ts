/**
 * A memory hit keeps the request's lines: the lookup collapses white space (DECISIONS.md), so a
 * stored text whose line breaks differ from the request's is not an exact hit (its translation
 * would bring the other lines), while spaces and tabs still differ freely.
 */
import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { addUserEntry, translateWithMemory } from "../../support/memory_requests.ts";
import { standInTranslation } from "../../support/ollama_stand_in.ts";
import { postTranslate } from "../../support/translation_service.ts";

/** Stored source, request text, and whether the stored translation answers it. */
const LINE_CASES: { stored: string; request: string; hit: boolean }[] = [
  { stored: "Good\n\nmorning", request: "Good morning", hit: false },
  { stored: "Good morning", request: "Good\n\nmorning", hit: false },
  { stored: "Good\nmorning", request: "Good\n\nmorning", hit: false },
  { stored: "Good\r\nmorning", request: "Good\nmorning", hit: false },
  { stored: "Good\n\nmorning", request: "Good \n\n  morning", hit: true },
  { stored: "Good  \t morning", request: "Good morning", hit: true },
  { stored: "\n  Good morning\n", request: "Good morning", hit: true },
];

for (const { stored, request, hit } of LINE_CASES) {
  Deno.test(`memory: stored ${JSON.stringify(stored)} ${hit ? "answers" : "does not answer"} ${JSON.stringify(request)}`, async () => {
    await withStandInService({}, async (service, runner) => {
      const storedTarget = stored.replace("Good", "Guten").replace("morning", "Morgen");
      await addUserEntry(service, stored, storedTarget);
      const body = await translateWithMemory(service, [request]);
      if (hit) {
        assert.equal(runner.chats.length, 0, "no engine call");
        assert.equal(body.engine, "memory");
        assert.equal(body.results[0].text, storedTarget.trim());
      } else {
        assert.equal(runner.chats.length, 1, "the engine translates it");
        assert.equal(body.results[0].text, standInTranslation(request));
      }
    });
  });
}

Deno.test("memory: engine translations of texts differing only in their lines each answer their own text", async () => {
  await withStandInService({}, async (service) => {
    await translateWithMemory(service, ["Good morning"]);
    await translateWithMemory(service, ["Good\n\nmorning"]);
    const body = await translateWithMemory(service, ["Good morning", "Good\n\nmorning"]);
    assert.deepEqual(body.results.map((result) => result.text), [
      standInTranslation("Good morning"),
      standInTranslation("Good\n\nmorning"),
    ]);
  });
});

/**
 * Formats where a line break inside a segment is white space: a hit need not have it. (Markdown
 * gives a wrapped line's break to the engine as a placeholder, so it is not white space there.)
 */
const SOFT_BREAKS = [
  { format: "html", text: "<p>Good\n  morning to you</p>", expected: "<p>Guten Morgen dir</p>" },
];

for (const { format, text, expected } of SOFT_BREAKS) {
  Deno.test(`memory: in ${format} a segment wrapped over lines is answered by its one-line entry`, async () => {
    await withStandInService({}, async (service, runner) => {
      await addUserEntry(service, "Good morning to you", "Guten Morgen dir");
      const body = await expectBody(
        await postTranslate(service, {
          source: "en",
          target: "de",
          format,
          texts: [text],
          options: { engine: "engine-one", memory: true },
        }),
        200,
        TranslateResponseSchema,
      );
      assert.equal(runner.chats.length, 0, "no engine call");
      assert.equal(body.results[0].text, expected);
    });
  });
}
