/**
 * Texts the memory cannot keep as written: U+0000 (SQLite stores it, but node:sqlite reads a text
 * only up to its first NUL: "Hello" for "Hello\0world") and half a surrogate pair (written as
 * UTF-8, it became U+FFFD). Such an entry came back as other text — a wrong exact hit, a wrong
 * listed and exported entry. The memory neither takes nor keeps one.
 */
import assert from "node:assert/strict";
import { MemoryPageSchema } from "../../../schemas/memory.ts";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import { standInTranslation } from "../../support/ollama_stand_in.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { postTranslate, type TestService } from "../../support/translation_service.ts";

async function stored(service: TestService) {
  return (await expectBody(
    await dataRequest(service, "GET", "/v1/memory/entries"),
    200,
    MemoryPageSchema,
  )).data;
}

const UNSTORABLE = [
  { name: "U+0000", text: "Hello\u0000world" },
  { name: "half a surrogate pair", text: "Hello \ud83d world" },
];

for (const { name, text } of UNSTORABLE) {
  Deno.test(`a translation of a text holding ${name} is not remembered, so the next one is the engine's whole answer`, async () => {
    await withStandInService({}, async (service, runner) => {
      for (let round = 1; round <= 2; round++) {
        const body = await expectBody(
          await postTranslate(service, {
            source: "en",
            target: "de",
            texts: [text],
            options: { engine: "engine-one", memory: true },
          }),
          200,
          TranslateResponseSchema,
        );
        // The chat engines answer a lone surrogate as U+FFFD (strict JSON readers refuse it).
        assert.equal(
          body.results[0].text,
          standInTranslation(text).toWellFormed(),
          `round ${round}`,
        );
        assert.equal(runner.chats.length, round, "the engine translated it");
      }
      assert.deepEqual(await stored(service), [], "no entry that reads back as other text");
    });
  });

  Deno.test(`POST /v1/memory/entries refuses a source or target holding ${name} with 400 and writes nothing`, async () => {
    await withStandInService({}, async (service) => {
      for (
        const [entry, param] of [
          [{ source: text, target: "Hallo" }, "entries[0].source"],
          [{ source: "Hello", target: text }, "entries[0].target"],
        ] as const
      ) {
        await expectError(
          await dataRequest(service, "POST", "/v1/memory/entries", {
            source_lang: "en",
            target_lang: "de",
            entries: [entry],
          }),
          400,
          "invalid_request",
          param,
        );
      }
      assert.deepEqual(await stored(service), []);
    });
  });
}
